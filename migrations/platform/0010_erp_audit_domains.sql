-- The audit prefixes of the stock core (issue 22): the lot register
-- (`lot.created`, `lot.status_changed`), inventory (`inventory.*`: moves,
-- locations, reservations, reorder rules) and quality (`quality.*`:
-- inspections, nonconformances).
INSERT INTO platform.tenant_audit_domains (prefix, domain) VALUES
    ('lot', 'lots'),
    ('inventory', 'inventory'),
    ('quality', 'quality');
