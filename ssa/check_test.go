package ssa_test

import (
	"testing"

	"github.com/ssalens/ssalens/ssa"
)

func check(t *testing.T, fn *ssa.Function) {}
