export { PaymentMethodBlocks, PAYMENT_METHOD_SELECT, groupMethods } from './PaymentMethodBlocks';
