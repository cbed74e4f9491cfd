// import x = require(…) is an import binding; import y = N.z stores the value of N.z into y
// where it stands; export = v reads v.
import fs = require("fs");
import type T = require("t");
namespace N { export const z = 1; }
import y = N.z;
export = fs.name + y;
