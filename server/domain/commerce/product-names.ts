import type { Selectable } from 'kysely';
import type { Db } from '../../db';
import { findAllProducts } from '../../db/repos/orders';
import type { ProductsTable } from '../../db/schema';
import { localize, parseForms, type Lang } from '../locale';
import type { ReasonParams } from '../rights/reasons';

type ProductRow = Selectable<ProductsTable>;

/** A product's name and description in `lang`: its `i18n` forms, else the fallbacks (domain/locale.ts). */
export function productTexts(
  row: Pick<ProductRow, 'name' | 'description'> & { i18n?: string | null },
  lang: Lang,
): { name: string; description: string } {
  return localize(lang, { name: row.name, description: row.description }, parseForms(row.i18n));
}

/**
 * Writes product names kept elsewhere (orders, team packages, purchase records keep the name at the time) in `lang`:
 * by the product's id, else by its cn name; a name no product has any more is written by the fallbacks.
 */
export async function productNamer(db: Db, lang: Lang): Promise<(name: string, productId?: number | null) => string> {
  if (lang === 'cn') return (name) => name;
  const products = await findAllProducts(db);
  const byId = new Map(products.map((p) => [Number(p.id), p]));
  const byName = new Map(products.map((p) => [p.name, p]));
  return (name, productId) => {
    const product = (productId != null ? byId.get(Number(productId)) : undefined) ?? byName.get(name);
    // a product renamed since the order: the order's name, in the reader's characters
    if (!product || product.name !== name) return localize(lang, { name }).name;
    return productTexts(product, lang).name;
  };
}

/** A purchase record's product name for right-reasons.ts reasonText. */
export const purchaseProduct =
  (namer: (name: string, productId?: number | null) => string) =>
  (params: ReasonParams): string | undefined =>
    typeof params.product === 'string'
      ? namer(params.product, params.product_id !== undefined ? Number(params.product_id) : null)
      : undefined;
