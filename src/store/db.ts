// One IndexedDB database with an object store per kind of record, so writes that span kinds (an entry and its
// session record, a session and its snapshots) commit or fail together in one transaction.
import type { UseStore } from 'idb-keyval';
import { StorageFullError } from './errors';

// Version 2 added `blobs` (file contents by git blob id) and `trees` (folder manifests by git tree id); snapshots
// written before it are whole zips in `snapshots` and are converted when their session is opened.
export const STORE_NAMES = ['settings', 'sessions', 'entries', 'snapshots', 'blobs', 'trees'] as const;
export type StoreName = (typeof STORE_NAMES)[number];
export type Stores = Record<StoreName, IDBObjectStore>;

const DB_VERSION = 2;

export interface Database {
  /** An idb-keyval compatible store over one object store of this database. */
  keyval(name: StoreName): UseStore;
  /** Runs `work` in one transaction; resolves after it commits, rejects (nothing written) if anything failed. */
  transact<T>(names: StoreName[], mode: IDBTransactionMode, what: string, work: (stores: Stores) => Promise<T>): Promise<T>;
  close(): void;
}

/** Opens (lazily) the database `<prefix>conch`; `factory` defaults to the global indexedDB. */
export function openDatabase(prefix = '', factory?: IDBFactory): Database {
  let connection: Promise<IDBDatabase> | null = null;

  function db(): Promise<IDBDatabase> {
    connection ??= openConnection(`${prefix}conch`, factory ?? indexedDB).then((d) => {
      // Another tab upgrading the schema must not be blocked by us: let go and reopen on next use.
      d.onversionchange = () => {
        d.close();
        connection = null;
      };
      return d;
    });
    connection.catch(() => (connection = null));
    return connection;
  }

  return {
    keyval(name) {
      return async (mode, callback) => callback((await db()).transaction(name, mode).objectStore(name));
    },
    async transact(names, mode, what, work) {
      const tx = (await db()).transaction(names, mode);
      const settled = new Promise<void>((resolve, reject) => {
        tx.oncomplete = () => resolve();
        tx.onabort = () => reject(tx.error ?? new DOMException('The transaction was aborted.', 'AbortError'));
      });
      const stores = {} as Stores;
      for (const name of names) stores[name] = tx.objectStore(name);
      try {
        const result = await work(stores);
        await settled;
        return result;
      } catch (error) {
        try {
          tx.abort();
        } catch {
          // already finished or aborting
        }
        await settled.catch(() => undefined);
        throw mapStorageError(error, what);
      }
    },
    close() {
      void connection?.then((d) => d.close());
      connection = null;
    },
  };
}

function openConnection(name: string, factory: IDBFactory): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = factory.open(name, DB_VERSION);
    request.onupgradeneeded = () => {
      for (const store of STORE_NAMES) {
        if (!request.result.objectStoreNames.contains(store)) request.result.createObjectStore(store);
      }
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
    request.onblocked = () =>
      reject(new Error('Conch storage is being upgraded by another tab; close the other Conch tabs and reload.'));
  });
}

/** Resolves an IDBRequest inside a live transaction. */
export function requestResult<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** True for every way browsers spell "quota exceeded" (standard name, legacy code 22, Firefox's own name). */
export function isQuotaError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, code } = error as { name?: unknown; code?: unknown };
  return name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED' || code === 22 || code === 1014;
}

/** Runs `work` against an idb-keyval `store`; a full disk is reported as StorageFullError naming `what`. */
export async function writeStore(store: UseStore, what: string, work: (store: UseStore) => Promise<void>): Promise<void> {
  try {
    await work(store);
  } catch (error) {
    throw mapStorageError(error, what);
  }
}

/** Quota errors become StorageFullError naming `what`; anything else passes through unchanged. */
export function mapStorageError(error: unknown, what: string): unknown {
  if (error instanceof StorageFullError) return error;
  if (isQuotaError(error)) return new StorageFullError(what, { cause: error });
  if (typeof error === 'object' && error !== null && isQuotaError((error as { cause?: unknown }).cause)) {
    return new StorageFullError(what, { cause: error });
  }
  return error;
}
