// A Node program requiring the package as CommonJS (no flags).
const core = {
  ...require("@blockbrief/client-core"),
  ...require("@blockbrief/client-core/more"),
  ...require("@blockbrief/client-core/link"),
};
const cases = require("./cases.json");

const entry = require.resolve("@blockbrief/client-core");
import("./shared-cases.mjs").then(({ runAll }) => console.log(JSON.stringify({ entry, ...runAll(core, cases) })));
