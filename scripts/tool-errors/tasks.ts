/**
 * The tasks the loop was working on when a gate failed: a story's title and description, as
 * the query starts with them. Most have nothing to do with the error, as in a real backlog.
 */
export interface Task {
  title: string;
  description: string;
}

export const TYPESCRIPT_TASKS: readonly Task[] = [
  {
    title: 'Add a discount code to the checkout',
    description:
      'The checkout form accepts a discount code, validates it against the promotions API and shows the reduced total.',
  },
  {
    title: 'Export invoices as CSV',
    description:
      'Accountants download the invoices of a month as one CSV file with the net, tax and gross amounts.',
  },
  {
    title: 'Paginate the orders list',
    description:
      'GET /orders returns 50 orders per page with a cursor; the list page shows a Load more button.',
  },
  {
    title: 'Send a password reset email',
    description:
      'A user who forgot the password gets a link valid for one hour; the link sets a new password once.',
  },
  {
    title: 'Show the upload progress',
    description:
      'Large file uploads show a progress bar and can be cancelled; a failed upload can be retried.',
  },
  {
    title: 'Rate limit the public API',
    description:
      'Each API key may make 100 requests per minute; further requests get 429 with a Retry-After header.',
  },
  {
    title: 'Refactor the pricing module',
    description:
      'Split price calculation into pure functions for tax, discounts and rounding, with unit tests for each.',
  },
  {
    title: 'Add dark mode to the settings page',
    description: 'Users choose light, dark or system theme; the choice is saved in their profile.',
  },
  {
    title: 'Cache product lookups',
    description:
      'Product details are cached for five minutes in memory so the catalogue page makes fewer database calls.',
  },
  {
    title: 'Audit log for admin actions',
    description:
      'Every change an admin makes is recorded with who, what and when, and can be filtered by user.',
  },
  {
    title: 'Migrate the build to ESM',
    description:
      'Switch the package to "type": "module" and NodeNext module resolution; keep the CLI working.',
  },
  {
    title: 'Webhook retries',
    description:
      'Outgoing webhooks are retried with exponential backoff up to five times and then marked as failed.',
  },
  {
    title: 'Fix the flaky cart test',
    description: 'The cart total test fails about one run in ten on CI; make it deterministic.',
  },
  {
    title: 'Localise dates in the dashboard',
    description: 'Dates on the dashboard follow the user locale and time zone instead of UTC.',
  },
];

export const PYTHON_TASKS: readonly Task[] = [
  {
    title: 'Import bank statements',
    description:
      'Parse the CSV statements of two banks into transactions and match them to open invoices.',
  },
  {
    title: 'Nightly report job',
    description:
      'A scheduled job computes the daily revenue per region and emails it to the finance team.',
  },
  {
    title: 'Add a coupon endpoint',
    description:
      'POST /coupons creates a coupon with a percentage or fixed amount and an expiry date.',
  },
  {
    title: 'Profile pictures',
    description: 'Users upload an avatar; it is resized to 256 px and stored in the media bucket.',
  },
  {
    title: 'Deduplicate customer records',
    description:
      'Find customers with the same email or phone and merge their orders into one record.',
  },
  {
    title: 'Average order value metric',
    description:
      'Compute the average order value per week for the analytics dashboard, including weeks without orders.',
  },
  {
    title: 'Validate shipping addresses',
    description:
      'Reject addresses without a postcode or with an unknown country code before an order is placed.',
  },
  {
    title: 'Move settings to environment variables',
    description:
      'Read the database URL and API keys from the environment with defaults for local development.',
  },
  {
    title: 'Add tests for the invoice numbering',
    description:
      'Invoice numbers are sequential per year and never reused; cover the year boundary.',
  },
  {
    title: 'Export users to the CRM',
    description:
      'Push new and changed users to the CRM API every hour, skipping users who opted out.',
  },
];
