import { useParams } from 'react-router';
import { CertificateCheckPage } from '../../features/courses/components/certificate-check-page.tsx';

/** /certifikat/{number}: the public verification of a certificate, its own small chunk. */
export const CertificateRoute = () => {
  const { number = '' } = useParams();
  return <CertificateCheckPage key={number} number={number} />;
};
