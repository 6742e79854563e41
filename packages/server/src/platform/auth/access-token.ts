import { CODES } from '@gdb/shared/api/envelope';
import { errors, jwtVerify, SignJWT } from 'jose';
import { unauthorized } from '../http/errors.ts';

export interface AccessToken {
  value: string;
  expireAt: number;
}

export interface AccessClaims {
  userId: string;
  sessionId: string;
}

/** Signs a short-lived access token for a session. */
export async function signAccessToken(key: Uint8Array, claims: AccessClaims, ttlSeconds: number): Promise<AccessToken> {
  const expireAt = Date.now() + ttlSeconds * 1000;
  const value = await new SignJWT({ sid: claims.sessionId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(claims.userId)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expireAt / 1000))
    .sign(key);
  return { value, expireAt };
}

/** Verifies a token: 50014 when it has expired, 50008 for anything else wrong. */
export async function verifyAccessToken(key: Uint8Array, token: string): Promise<AccessClaims> {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
    if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') throw new Error('claims missing');
    return { userId: payload.sub, sessionId: payload.sid };
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw unauthorized(CODES.expired, 'Your session has expired.');
    throw unauthorized(CODES.badToken, 'Invalid token.');
  }
}
