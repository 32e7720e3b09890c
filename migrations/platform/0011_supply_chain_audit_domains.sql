-- The audit prefixes of the supply chain (issue 23): parties (`supplier.*`,
-- `customer.*`), procurement (`procurement.*`: purchase orders, receipts,
-- supplier bills), manufacturing (`manufacturing.*`: bills of materials,
-- manufacturing orders), logistics (`logistics.*`: shipments, the GS1
-- company prefix) and recalls (`recall.*`).
INSERT INTO platform.tenant_audit_domains (prefix, domain) VALUES
    ('supplier', 'parties'),
    ('customer', 'parties'),
    ('procurement', 'procurement'),
    ('manufacturing', 'manufacturing'),
    ('logistics', 'logistics'),
    ('recall', 'recalls');
