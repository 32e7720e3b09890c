//! The place of a scan from the consumer's address, read from an offline IP
//! database in MaxMind's MMDB format (GeoLite2-City, DB-IP City Lite, or
//! any database with the GeoIP2 City layout), when `GEOIP_MMDB` names one.
//! Nothing leaves the server: no lookup service is called.

use std::collections::BTreeMap;
use std::net::IpAddr;
use std::path::Path;
use std::sync::Arc;

use serde::Deserialize;

use super::Place;

/// An IP database loaded in memory (a city database is some tens of MB);
/// clones share it.
#[derive(Clone)]
pub struct IpPlaces {
    reader: Arc<maxminddb::Reader<Vec<u8>>>,
}

#[derive(Deserialize)]
struct Names {
    names: Option<BTreeMap<String, String>>,
    iso_code: Option<String>,
}

#[derive(Deserialize)]
struct Location {
    latitude: Option<f64>,
    longitude: Option<f64>,
    accuracy_radius: Option<u16>,
}

/// The parts of a GeoIP2 City record a scan keeps.
#[derive(Deserialize)]
struct CityRecord {
    country: Option<Names>,
    subdivisions: Option<Vec<Names>>,
    city: Option<Names>,
    location: Option<Location>,
}

fn english(names: Option<&Names>) -> String {
    names
        .and_then(|n| n.names.as_ref())
        .and_then(|n| n.get("en"))
        .map(|s| s.chars().take(100).collect())
        .unwrap_or_default()
}

impl IpPlaces {
    /// Opens the database; an error names the file and what is wrong.
    pub fn open(path: &Path) -> anyhow::Result<Self> {
        let bytes = std::fs::read(path)
            .map_err(|e| anyhow::anyhow!("GEOIP_MMDB {}: {e}", path.display()))?;
        let reader = maxminddb::Reader::from_source(bytes).map_err(|e| {
            anyhow::anyhow!("GEOIP_MMDB {} is not an MMDB file: {e}", path.display())
        })?;
        Ok(Self {
            reader: Arc::new(reader),
        })
    }

    /// The place of an address, or `None` when the database does not know it.
    pub fn place(&self, ip: IpAddr) -> Option<Place> {
        let found = self.reader.lookup(ip).ok()?;
        let record: CityRecord = found.decode().ok()??;
        let country = record
            .country
            .as_ref()
            .and_then(|c| c.iso_code.clone())
            .filter(|c| c.len() == 2 && c.bytes().all(|b| b.is_ascii_uppercase()))
            .unwrap_or_default();
        let location = record.location.as_ref();
        let coordinate = |v: Option<f64>, limit: f64| {
            v.filter(|v| v.is_finite() && v.abs() <= limit)
                .map(|v| v as f32)
        };
        let place = Place {
            country,
            country_name: english(record.country.as_ref()),
            region: english(record.subdivisions.as_ref().and_then(|s| s.first())),
            city: english(record.city.as_ref()),
            lat: coordinate(location.and_then(|l| l.latitude), 90.0),
            lon: coordinate(location.and_then(|l| l.longitude), 180.0),
            source: "ip",
            accuracy_km: location.and_then(|l| l.accuracy_radius).map(i32::from),
        };
        if place.country.is_empty() && place.lat.is_none() {
            None
        } else {
            Some(place)
        }
    }
}
