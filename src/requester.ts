// Who a request acts as: the user the authentication chain found, as every layer names it.
export interface AuthUser {
  id: number;
  username: string;
  /**
   * The bytes the user's snippets held when the request's credential was looked up, where that lookup read them with
   * the user (src/store/snippets/usage.ts STORED_BYTES): a create's early quota check goes by them.
   */
  storedBytes?: number;
}
