import { GlpPage } from '../../features/courses/components/glp-page.tsx';

/** /glp: the embeddable public course list (decision 0031), its own small chunk without the app's chrome. */
export const GlpRoute = () => <GlpPage />;
