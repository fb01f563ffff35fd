// GitHub's primary rate limits as the mock keeps them: one budget per caller (the address without a token, each
// token apart) and per resource (`core` for REST, `graphql`), each resetting an hour after its first use, and the
// x-ratelimit-* headers every API answer carries.

export type RateResource = 'core' | 'graphql';

export type RateLimitOptions = {
  /** Requests an hour without a token (GitHub: 60). */
  unauthenticated?: number;
  /** Requests (GraphQL: points) an hour with a token (GitHub: 5,000). */
  authenticated?: number;
};

type Budget = { limit: number; used: number; reset: number };

export class RateLimits {
  private readonly budgets = new Map<string, Budget>();
  private readonly unauthenticated: number;
  private readonly authenticated: number;

  constructor(options: RateLimitOptions = {}) {
    this.unauthenticated = options.unauthenticated ?? 60;
    this.authenticated = options.authenticated ?? 5000;
  }

  /** Spends one request of the caller's budget; false (nothing spent) when it is used up. */
  spend(token: string | null, resource: RateResource): boolean {
    const budget = this.budget(token, resource);
    if (budget.used >= budget.limit) return false;
    budget.used++;
    return true;
  }

  /** Sets what is left of a budget (0: the next request is refused). */
  setRemaining(token: string | null, resource: RateResource, remaining: number): void {
    const budget = this.budget(token, resource);
    budget.used = Math.max(0, budget.limit - remaining);
  }

  /** The epoch second the budget resets. */
  resetOf(token: string | null, resource: RateResource): number {
    return this.budget(token, resource).reset;
  }

  /** The x-ratelimit-* headers for the caller's budget, as it stands. */
  headers(token: string | null, resource: RateResource): Record<string, string> {
    const budget = this.budget(token, resource);
    return {
      'x-ratelimit-limit': String(budget.limit),
      'x-ratelimit-remaining': String(Math.max(0, budget.limit - budget.used)),
      'x-ratelimit-reset': String(budget.reset),
      'x-ratelimit-used': String(budget.used),
      'x-ratelimit-resource': resource,
    };
  }

  clear(): void {
    this.budgets.clear();
  }

  private budget(token: string | null, resource: RateResource): Budget {
    const key = `${token ?? ''}\0${resource}`;
    let budget = this.budgets.get(key);
    const now = Math.floor(Date.now() / 1000);
    if (!budget || budget.reset <= now) {
      budget = { limit: token === null ? this.unauthenticated : this.authenticated, used: 0, reset: now + 3600 };
      this.budgets.set(key, budget);
    }
    return budget;
  }
}
