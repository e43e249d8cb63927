import type { Queryable } from '../types.js';

// 2FA recovery codes: the hashes of a user's single-use codes. Parameterized SQL only.

/** Replaces the user's codes with these hashes (the old codes stop working at once). */
export async function replaceRecoveryCodes(db: Queryable, userId: number, hashes: string[]): Promise<void> {
  await db.query('DELETE FROM user_recovery_codes WHERE user_id = $1', [userId]);
  await db.query('INSERT INTO user_recovery_codes (user_id, code_hash) SELECT $1, unnest($2::text[])', [
    userId,
    hashes,
  ]);
}

export async function deleteRecoveryCodes(db: Queryable, userId: number): Promise<void> {
  await db.query('DELETE FROM user_recovery_codes WHERE user_id = $1', [userId]);
}

/** Spends one unused code; false when the user has no such unused code (wrong, or already used). */
export async function useRecoveryCode(
  db: Queryable,
  userId: number,
  hash: string,
  at: Date,
): Promise<boolean> {
  const result = await db.query(
    `UPDATE user_recovery_codes SET used_at = $3
      WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING id`,
    [userId, hash, at],
  );
  return result.rowCount > 0;
}

export async function countRecoveryCodesLeft(db: Queryable, userId: number): Promise<number> {
  const result = await db.query<{ left: number }>(
    'SELECT count(*)::int AS left FROM user_recovery_codes WHERE user_id = $1 AND used_at IS NULL',
    [userId],
  );
  return result.rows[0]?.left ?? 0;
}
