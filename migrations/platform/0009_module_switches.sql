-- Module switches (issue 19). From this release a tenant's `modules` are
-- enforced: its members' calls to the operations of a module it does not
-- have answer 403 `module_disabled` (the mapping operation -> module is the
-- server's, by OpenAPI tag: backend/src/http/modules.rs), and the web app
-- hides the module's pages. Platform admins set the list with
-- PATCH /api/platform/tenants/{client_id}.
--
-- Until now the list was stored but never read, so every tenant could use
-- every built module whatever it said; client organisations were created
-- with only `client_tools` although they use products, code jobs and labels.
-- So that switching enforcement on takes nothing away that works today,
-- every existing tenant gets the built modules of its kind that it lacks
-- (appended, the list otherwise kept as it is):
--   brands:  products, codes, labels, scans, dpp, journey;
--   clients: products, codes, labels, scans, client_tools.
-- The ERP modules (inventory, procurement, ...) have no operations yet and
-- stay as they were.
UPDATE platform.tenants
SET modules = modules || ARRAY(
        SELECT m
        FROM unnest(CASE kind
                        WHEN 'brand' THEN ARRAY['products', 'codes', 'labels', 'scans', 'dpp', 'journey']
                        ELSE ARRAY['products', 'codes', 'labels', 'scans', 'client_tools']
                    END) WITH ORDINALITY AS built(m, n)
        WHERE m <> ALL (modules)
        ORDER BY n
    );
