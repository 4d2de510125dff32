import { EntityManager } from 'typeorm';

/**
 * Rows of a raw query. TypeORM's postgres driver answers UPDATE and DELETE with
 * [rows, affectedCount] but everything else with rows alone.
 */
export async function sqlRows<T>(
  manager: EntityManager,
  sql: string,
  params: unknown[],
): Promise<T[]> {
  const result = (await manager.query(sql, params)) as unknown;
  if (/^\s*(UPDATE|DELETE)/i.test(sql) && Array.isArray(result) && Array.isArray(result[0]))
    return result[0] as T[];
  return result as T[];
}
