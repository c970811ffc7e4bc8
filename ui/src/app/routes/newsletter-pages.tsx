import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { NewsletterPage, NewslettersPage } from '../../features/newsletters/components/newsletter-reader.tsx';

/** The readers' newsletter pages (spec §2 /novicnik, issue 16): their own chunk, loaded on first use. */
export const NewsletterRoutePage = ({ path, notFound }: { path: string; notFound: ReactNode }) => {
  const { newsletterId } = useParams();
  if (path === '/novicnik') return <NewslettersPage />;
  const id = Number(newsletterId);
  return Number.isInteger(id) && id > 0 ? <NewsletterPage key={id} id={id} /> : notFound;
};
