// What other features and the app may use of the benefits area.
export { BenefitPage } from "./BenefitPage";
export { useBenefits } from "./api/get-benefits";
