// The driver of corpus.Blank: strips the types of many TypeScript files with
// ts-blank-space in one node process.
//
//   node blank.mjs INSTALL_DIR < requests > results
//
// INSTALL_DIR holds node_modules/ts-blank-space and node_modules/typescript.
// Each line of standard input is a JSON request {"name", "tsx", "src"}; each
// line of standard output is the JSON result for the request on the same line:
// {"js", "refused": [{"kind", "start", "end", "text"}]}, where start and end are
// UTF-8 byte offsets into src. A refusal is syntax that ts-blank-space cannot
// erase in place (reported through its error callback), or a syntax error of
// TypeScript's parser (kind "SyntaxError").
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const dir = process.argv[2];
const require = createRequire(join(dir, "package.json"));
const load = async (name) => import(pathToFileURL(require.resolve(name)).href);
const ts = (await load("typescript")).default;
const { blankSourceFile } = await load("ts-blank-space");

// utf8Length returns the number of UTF-8 bytes of the UTF-16 code unit c; each
// half of a surrogate pair counts 2 of the pair's 4.
function utf8Length(c) {
  if (c < 0x80) return 1;
  if (c < 0x800) return 2;
  if (c >= 0xd800 && c <= 0xdfff) return 2;
  return 3;
}

// keepBytes makes ts-blank-space's output byte-for-byte as long as the input
// in UTF-8: ts-blank-space replaces each UTF-16 code unit of erased text with
// one space, which shortens the UTF-8 text wherever it erases a non-ASCII
// character (in a string literal type, say). It also keeps the line
// separators U+2028 and U+2029 that it would turn into spaces.
function keepBytes(input, output) {
  if (input.length !== output.length) throw new Error(`ts-blank-space changed the length from ${input.length} to ${output.length}`);
  let out = "";
  let from = 0;
  for (let i = 0; i < input.length; i++) {
    const c = input.charCodeAt(i);
    if (c < 0x80 || output.charCodeAt(i) === c) continue;
    out += output.slice(from, i);
    if (c === 0x2028 || c === 0x2029) {
      out += input[i];
    } else {
      out += output[i] + " ".repeat(utf8Length(c) - 1);
    }
    from = i + 1;
  }
  return out + output.slice(from);
}

function kindName(kind) {
  try {
    return ts.Debug.formatSyntaxKind(kind);
  } catch {
    return ts.SyntaxKind[kind];
  }
}

function byteOffset(src, pos) {
  return Buffer.byteLength(src.slice(0, pos), "utf8");
}

function blank(req) {
  const { name, tsx, src } = req;
  const sf = ts.createSourceFile(name, src, ts.ScriptTarget.ESNext, false, tsx ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const refused = [];
  const refuse = (kind, pos, end) => {
    const text = src.slice(pos, end).split("\n")[0].slice(0, 80);
    refused.push({ kind, start: byteOffset(src, pos), end: byteOffset(src, end), text });
  };
  for (const d of sf.parseDiagnostics ?? []) {
    refuse("SyntaxError: " + ts.flattenDiagnosticMessageText(d.messageText, " "), d.start, d.start + d.length);
  }
  const js = blankSourceFile(sf, (node) => refuse(kindName(node.kind), node.getStart(sf), node.end));
  return { js: refused.length ? "" : keepBytes(src, js), refused };
}

let input = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) input += chunk;
const out = [];
for (const line of input.split("\n")) {
  if (line === "") continue;
  let res;
  try {
    res = blank(JSON.parse(line));
  } catch (e) {
    res = { js: "", refused: [{ kind: "DriverError: " + (e && e.message), start: 0, end: 0, text: "" }] };
  }
  out.push(JSON.stringify(res));
}
process.stdout.write(out.join("\n") + "\n");
