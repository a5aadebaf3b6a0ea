// A Vite app importing the wasm package the way the web client will (vite-plugin-wasm).
import { mapLink, isValidEmail, decodeExt } from "../../../pkg/client_core.js";

document.body.dataset.result = JSON.stringify([
  mapLink("blockbrief://Benefit?id=42&from=home"),
  isValidEmail("reader@example.org"),
  decodeExt("ZnJvbT1ob21l"),
]);
