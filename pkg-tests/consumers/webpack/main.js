// A webpack 5 app importing the package by its name (`experiments.asyncWebAssembly` bundles the
// `bundler` entry).
import * as core from "@blockbrief/client-core";
import cases from "../cases.json";
import { runAll } from "../shared-cases.mjs";

const { ran, failures, missing } = runAll(core, cases);
document.body.dataset.result = JSON.stringify({ ran, failures: failures.slice(0, 3), missing });
