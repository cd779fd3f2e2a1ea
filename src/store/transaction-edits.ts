/** What a person, a rule or an import changes of a stored transaction besides its value (insert-transactions.ts): notes and tag links. */
import type { Db } from './db.js';
import { prepareCached } from './statements.js';

export function setNotes(db: Db, transactionId: string, notes: string | null): void {
  prepareCached(db, 'UPDATE transactions SET notes = ? WHERE id = ?').run(notes, transactionId);
}

/** Links a tag to a transaction; false when it already was. */
export function linkTag(db: Db, transactionId: string, tagId: string): boolean {
  return prepareCached(db, 'INSERT OR IGNORE INTO transaction_tags (transaction_id, tag_id) VALUES (?, ?)').run(transactionId, tagId).changes === 1;
}

export function unlinkTag(db: Db, transactionId: string, tagId: string): void {
  prepareCached(db, 'DELETE FROM transaction_tags WHERE transaction_id = ? AND tag_id = ?').run(transactionId, tagId);
}

export function tagIdsOf(db: Db, transactionId: string): string[] {
  return prepareCached(db, 'SELECT tag_id FROM transaction_tags WHERE transaction_id = ?').pluck().all(transactionId) as string[];
}
