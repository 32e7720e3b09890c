-- The audit prefix of pricing (issue 24): `pricing.*` (price lists created
-- and replaced).
INSERT INTO platform.tenant_audit_domains (prefix, domain) VALUES
    ('pricing', 'pricing');
