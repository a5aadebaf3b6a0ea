// A Node program importing the package as ES modules (no flags).
import * as main from "@blockbrief/client-core";
import * as more from "@blockbrief/client-core/more";
import * as link from "@blockbrief/client-core/link";
import { readFileSync } from "node:fs";
import { runAll } from "./shared-cases.mjs";

const cases = JSON.parse(readFileSync(new URL("./cases.json", import.meta.url)));
const entry = import.meta.resolve("@blockbrief/client-core");
console.log(JSON.stringify({ entry, ...runAll({ ...main, ...more, ...link }, cases) }));
