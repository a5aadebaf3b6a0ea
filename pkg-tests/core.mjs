// The package's two modules (client_core and client_core_more, its Node ESM build) as one object:
// a rule's cases do not depend on which module carries it.
import * as main from "../pkg/esm/client_core.js";
import * as more from "../pkg/esm/client_core_more.js";

export const core = { ...main, ...more };
