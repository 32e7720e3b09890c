//! `openapi.yaml` at the repository root is generated from the code; this
//! fails when it is stale. Regenerate with `make openapi`.

#[test]
fn openapi_yaml_is_up_to_date() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../openapi.yaml");
    let committed = std::fs::read_to_string(&path).expect("openapi.yaml exists at the repo root");
    let generated = brandops::app::api::spec_yaml();
    assert!(
        committed == generated,
        "openapi.yaml is stale: run `make openapi` and commit the result"
    );
}

#[test]
fn every_operation_declares_its_errors_in_the_envelope() {
    let doc: serde_yaml::Value = serde_yaml::from_str(&brandops::app::api::spec_yaml()).unwrap();
    for (path, item) in doc["paths"].as_mapping().unwrap() {
        for (method, op) in item.as_mapping().unwrap() {
            let responses = op["responses"].as_mapping().unwrap();
            // The public routes outside `/api` (app::public) are not behind
            // the guard: each declares its own statuses (a 503, not a 500,
            // when the database is away), and their error answers are the
            // envelope too (checked below, and against real answers in
            // public_contract.rs).
            let public = op["tags"]
                .as_sequence()
                .is_some_and(|t| t.iter().any(|t| t.as_str() == Some("Public")));
            // The guard refuses a body that is too large or not JSON.
            if op.get("requestBody").is_some() && !public {
                for status in ["413", "415"] {
                    assert!(
                        responses.contains_key(status),
                        "{method:?} {path:?} takes a body but does not declare {status}: `with body`"
                    );
                }
            }
            assert!(
                public || responses.contains_key("500"),
                "{method:?} {path:?} lacks 500"
            );
            for (status, resp) in responses {
                let code: u16 = status.as_str().unwrap().parse().unwrap();
                if code >= 400 {
                    let content = if public {
                        "application/json"
                    } else {
                        "application/json; charset=utf-8"
                    };
                    let schema = resp["content"][content]["schema"]["$ref"]
                        .as_str()
                        .unwrap_or_default();
                    // The envelope, or a body that extends it (the same
                    // required `error` and `code`, and details).
                    let name = schema.trim_start_matches("#/components/schemas/");
                    let required = &doc["components"]["schemas"][name]["required"];
                    let extends = ["error", "code"].iter().all(|f| {
                        required
                            .as_sequence()
                            .is_some_and(|r| r.iter().any(|v| v.as_str() == Some(f)))
                    });
                    assert!(
                        name == "ErrorBody" || extends,
                        "{method:?} {path:?} {code}: {schema} is not the error envelope"
                    );
                }
            }
        }
    }
}
