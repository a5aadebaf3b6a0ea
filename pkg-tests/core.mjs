// The package's three modules (client_core, client_core_more and client_core_link, its Node ESM
// build) as one object:
// a rule's cases do not depend on which module carries it.
import * as main from "../pkg/esm/client_core.js";
import * as more from "../pkg/esm/client_core_more.js";
import * as link from "../pkg/esm/client_core_link.js";

export const core = { ...main, ...more, ...link };
