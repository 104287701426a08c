// Who a request acts as: the user the authentication chain found, as every layer names it.
export interface AuthUser {
  id: number;
  username: string;
}
