// Typed calls of My rights and the pricing page.
import type { components } from '../../openapi/schema';
import { api, unwrap, type UnwrapOptions } from './client';

export type Right = components['schemas']['Right'];
export type Product = components['schemas']['Product'];
export type Order = components['schemas']['Order'];

export interface Prepay {
  order_no: string;
  code_url: string;
  amount: number;
  expire_at: string;
  configured: boolean;
}

export interface Page<T> {
  list: T[];
  total: number;
  num: number;
  size: number;
}

export interface RightRecord {
  id: number;
  user_right_type: number;
  title: string;
  num: number;
  reason: string;
  created_at: string;
}

export const commerceKeys = {
  rightDetail: ['user', 'right', 'detail'] as const,
  records: (num: number, size: number) => ['user', 'right', 'records', num, size] as const,
  orders: (num: number, size: number) => ['user', 'orders', num, size] as const,
  products: ['user', 'products'] as const,
  payConfig: ['pay', 'config'] as const,
};

export function rightDetail(options: UnwrapOptions = {}) {
  return unwrap(api.GET('/user/v1/get_user_right_detail'), options);
}

export async function rightRecords(num: number, size: number): Promise<Page<RightRecord>> {
  return unwrap(api.GET('/user/right_consumption_record/page', { params: { query: { num, size } } }));
}

export async function orders(num: number, size: number): Promise<Page<Order>> {
  return unwrap(api.GET('/user/right_order/v1/get_list', { params: { query: { num, size } } }));
}

export async function products(): Promise<Product[]> {
  return unwrap(api.GET('/user/right_product/get_list'));
}

export async function payConfig(): Promise<{ configured: boolean; provider: string | null }> {
  return unwrap(api.GET('/pay/wx/config'));
}

export async function nativePrepay(productId: number): Promise<Prepay> {
  return unwrap(api.GET('/pay/wx/native_prepay', { params: { query: { product_id: productId } } }));
}

export async function refreshQrCode(orderNo: string): Promise<Prepay> {
  return unwrap(api.GET('/pay/wx/qrcode/refresh', { params: { query: { order_no: orderNo } } }));
}

export async function payOrder(orderNo: string, options: UnwrapOptions = {}): Promise<Order> {
  return unwrap(api.GET('/pay/wx/order', { params: { query: { order_no: orderNo } } }), options);
}
