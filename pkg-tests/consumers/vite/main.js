// A Vite app importing the package by its name (vite-plugin-wasm bundles the `bundler` entry).
import * as main from "@blockbrief/client-core";
import * as more from "@blockbrief/client-core/more";
import * as link from "@blockbrief/client-core/link";
import cases from "../cases.json";
import { runAll } from "../shared-cases.mjs";

const { ran, failures, missing } = runAll({ ...main, ...more, ...link }, cases);
document.body.dataset.result = JSON.stringify({ ran, failures: failures.slice(0, 3), missing });
