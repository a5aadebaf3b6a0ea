// The rules only some pages use, client-core's second WebAssembly module (`client_core_more`:
// what readers write, feedback, alert rules, sign-in forms, tasks, links inside articles). Only
// those pages import this file, so the module loads with their code and a first visit skips it.
export * from "@blockbrief/client-core/more";
