// What other features may use of the benefits area (its page is routed directly: the
// Explore page that lists benefits should not load the page's code and its wasm rules).
export { useBenefits } from "./api/get-benefits";
