/**
 * The payment-provider interface. The server only talks to a provider through this, so the
 * gateway can be replaced (tests fake the WeChat Pay gateway's HTTP side, never this module's crypto).
 */
export interface PrepayRequest {
  orderNo: string;
  description: string;
  /** Amount in fen. */
  amount: number;
  expireAt: Date;
}

/** What the gateway says about an order. */
export interface PaymentState {
  orderNo: string;
  /** SUCCESS when paid; anything else (NOTPAY, CLOSED, USERPAYING, ...) is not paid. */
  state: string;
  transactionId: string | null;
  /** Amount paid in fen (checked against the order). */
  amount: number | null;
  paidAt: string | null;
}

export interface NotificationHeaders {
  timestamp?: string;
  nonce?: string;
  signature?: string;
  serial?: string;
}

export interface PaymentProvider {
  readonly name: 'wechat';
  /** Creates a native (QR code) payment; returns the weixin:// URL to encode. */
  nativePrepay(request: PrepayRequest): Promise<{ codeUrl: string }>;
  /** Asks the gateway about an order (the fallback when a notification is late or lost). */
  queryOrder(orderNo: string): Promise<PaymentState>;
  /** Closes an unpaid order at the gateway (its QR code stops working). */
  closeOrder(orderNo: string): Promise<void>;
  /** Verifies and decrypts a payment notification; throws NotificationError when it is not authentic. */
  parseNotification(headers: NotificationHeaders, rawBody: string): PaymentState;
}

export class NotificationError extends Error {}
export class GatewayError extends Error {}
