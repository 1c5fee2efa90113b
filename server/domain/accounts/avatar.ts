import { createHash } from 'node:crypto';

const PALETTE = ['#1e6fd9', '#0f9d8a', '#c2410c', '#7c3aed', '#be185d', '#15803d', '#b45309', '#0369a1'];

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A deterministic default avatar: a coloured disc with the first character of the name. */
export function defaultAvatarSvg(uid: number, name: string): string {
  const digest = createHash('sha256').update(`${uid}:${name}`).digest();
  const background = PALETTE[digest[0] % PALETTE.length];
  const initial = escapeXml(Array.from(name.trim())[0] ?? '用');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96">` +
    `<circle cx="48" cy="48" r="48" fill="${background}"/>` +
    (`<text x="48" y="48" dy=".35em" text-anchor="middle" font-size="44" ` +
      `font-family="sans-serif" fill="#fff">${initial}</text>`) +
    `</svg>`
  );
}
