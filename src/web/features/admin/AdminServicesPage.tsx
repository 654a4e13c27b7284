import { useTranslation } from '../../i18n';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import type { PageMeta } from '../../app/page';
import { useAdminBase } from './AdminLayout';
import { ApiServicesTab } from './ApiServicesTab';
import { LocalServicesTab } from './LocalServicesTab';
import { ParamTextsTab } from './ParamTextsTab';
import { ServiceNamesTab } from './ServiceNamesTab';
import { TabList, TabPanel } from '../../components/ui/Tabs';
import { AdminPage } from './ui';

export const ns = ['admin'];
export const meta: PageMeta = ({ t, site }) => ({ title: `${t('admin:services.title')} · ${site.site_name}` });

type Tab = 'local' | 'api' | 'names' | 'params';

/**
 * /admin/services (local, API and param texts tabs, `?tab=api`, `?tab=params`) and
 * /admin/service-names (the names tab):
 * the tab lives in the address, so each one can be linked and reloaded.
 */
export default function AdminServicesPage() {
  const { t } = useTranslation('admin');
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const base = useAdminBase();
  const asked = params.get('tab');
  const tab: Tab = pathname.endsWith('/service-names') ? 'names' : asked === 'api' || asked === 'params' ? asked : 'local';

  const select = (next: string) => {
    const to = next === 'names' ? `${base}/service-names` : next === 'api' || next === 'params' ? `${base}/services?tab=${next}` : `${base}/services`;
    void navigate(to, { replace: true, preventScrollReset: true });
  };

  return (
    <AdminPage title={t('services.title')} description={t('services.lead')}>
      <TabList
        value={tab}
        onChange={select}
        label={t('services.title')}
        idPrefix="services"
        look="pill"
        items={[
          { id: 'local', label: t('services.tabs.local') },
          { id: 'api', label: t('services.tabs.api') },
          { id: 'names', label: t('services.tabs.names') },
          { id: 'params', label: t('services.tabs.params') },
        ]}
      />
      <TabPanel id={tab} idPrefix="services" active>
        {tab === 'local' ? <LocalServicesTab /> : tab === 'api' ? <ApiServicesTab /> : tab === 'names' ? <ServiceNamesTab /> : <ParamTextsTab />}
      </TabPanel>
    </AdminPage>
  );
}
