// Reads the JSON file named by its argument, {name: [as written, as sent]}, and prints, one to a
// line, each script whose two forms TypeScript prints otherwise without their comments: a
// comment line taken out of a script must take nothing else with it (web/__init__.py).
import { readFileSync } from "node:fs";
import ts from "typescript";

const printer = ts.createPrinter({ removeComments: true });
const printed = (name, text) => printer.printFile(
  ts.createSourceFile(name, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS));
const scripts = JSON.parse(readFileSync(process.argv[2], "utf8"));
for (const [name, [written, sent]] of Object.entries(scripts)) {
  if (printed(name, written) !== printed(name, sent)) console.log(name);
}
