/**
 * JWTs a trusted issuer never issued, for what verification must refuse: signed with a key it does
 * not publish, a real token with its signature replaced, and an unsigned one (`alg: none`).
 */
import { generateKeyPair, SignJWT, UnsecuredJWT, type JWTPayload } from 'jose';

/** Signed with a key made here, under key id `kid`, valid for five minutes. */
export async function forgedToken(claims: JWTPayload, kid = 'forged'): Promise<string> {
  const { privateKey } = await generateKeyPair('RS256');
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid })
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(privateKey);
}

/** `token`'s header and claims under a signature that is not theirs. */
export function withBadSignature(token: string): string {
  const [header, payload] = token.split('.');
  return `${header}.${payload}.${Buffer.from('not the signature').toString('base64url')}`;
}

/** No signature at all, valid for five minutes. */
export function unsignedToken(claims: JWTPayload): string {
  return new UnsecuredJWT(claims).setIssuedAt().setExpirationTime('5m').encode();
}
