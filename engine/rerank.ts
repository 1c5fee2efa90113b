/**
 * The spelling reranker: a logistic regression over the candidate features of spell.ts
 * `rerankFeatures`. Trained by engine/tools/train-rerank.ts on the even halves of the development
 * sets; only the fitted weights are stored (lexicon/rerank.json). (Boosted trees over the same
 * features were tried: they overfit the ~1,500 positive candidates and scored lower on the odd halves.)
 */

export interface RerankModel {
  /** feature names, in order (spell.ts FEATURE_NAMES, or its first-stage prefix) */
  features: string[];
  /** one weight per feature; feature 0 is the constant 1 */
  weights: number[];
}

/** log-odds that the candidate is a correct fix; uses the first weights.length features of x */
export function rerankScore(m: RerankModel, x: number[]): number {
  const w = m.weights;
  let z = 0;
  for (let k = 0; k < w.length; k++) z += w[k] * x[k];
  return z;
}

/** logistic regression with an L2 penalty (not on the bias, feature 0), by Newton's method */
export function trainLinear(
  X: number[][],
  y: number[],
  names: string[],
  l2: number,
  log?: (s: string) => void,
): RerankModel {
  const D = names.length;
  const w = new Array<number>(D).fill(0);
  for (let it = 0; it < 30; it++) {
    const g = new Array<number>(D).fill(0);
    const H = Array.from({ length: D }, () => new Array<number>(D).fill(0));
    let ll = 0;
    for (let n = 0; n < X.length; n++) {
      const x = X[n];
      let z = 0;
      for (let k = 0; k < D; k++) z += w[k] * x[k];
      const p = 1 / (1 + Math.exp(-z));
      ll += y[n] ? Math.log(p + 1e-12) : Math.log(1 - p + 1e-12);
      const r = p - y[n],
        s = p * (1 - p);
      for (let a = 0; a < D; a++) {
        if (x[a] === 0) continue;
        g[a] += r * x[a];
        for (let b = a; b < D; b++) H[a][b] += s * x[a] * x[b];
      }
    }
    for (let a = 0; a < D; a++) {
      g[a] += a === 0 ? 0 : l2 * w[a];
      H[a][a] += a === 0 ? 1e-6 : l2;
      for (let b = 0; b < a; b++) H[a][b] = H[b][a];
    }
    const step = solve(H, g);
    let mx = 0;
    for (let k = 0; k < D; k++) {
      w[k] -= step[k];
      mx = Math.max(mx, Math.abs(step[k]));
    }
    log?.(`newton ${it}: log-likelihood ${ll.toFixed(1)}`);
    if (mx < 1e-7) break;
  }
  return { features: names, weights: w.map((v) => Math.round(v * 1e5) / 1e5) };
}

/** Gauss-Jordan elimination with partial pivoting */
function solve(A: number[][], b: number[]): number[] {
  const n = b.length;
  const M = A.map((r, i) => [...r, b[i]]);
  for (let c = 0; c < n; c++) {
    let piv = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r][c]) > Math.abs(M[piv][c])) piv = r;
    [M[c], M[piv]] = [M[piv], M[c]];
    const d = M[c][c] || 1e-12;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = M[r][c] / d;
      if (f) for (let k = c; k <= n; k++) M[r][k] -= f * M[c][k];
    }
  }
  return M.map((r, i) => r[n] / (M[i][i] || 1e-12));
}
