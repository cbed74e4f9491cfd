// export default of an anonymous function declaration: a closure created in the module
// function, binding no local name; it reads a module variable assigned twice (a context
// variable).
let n = 1;
n = 2;
export default function () { return n; }
