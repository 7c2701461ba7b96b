/** The newsletter as the admin sees it. */

/** GET /api/admin/newsletter: how many addresses are confirmed (the only ones that count) and pending. */
export interface NewsletterCountsAnswer {
  confirmed: number;
  pending: number;
}
