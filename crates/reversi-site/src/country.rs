//! The countries a player may name on their profile (shown as a flag beside the name): the
//! officially assigned ISO 3166-1 alpha-2 codes. The pages name each in the reader's language
//! (the browser's `Intl.DisplayNames`), so only the codes are kept here.

/// Every officially assigned ISO 3166-1 alpha-2 code (249), in alphabetical order.
pub const COUNTRIES: [&str; 249] = [
    "AD", "AE", "AF", "AG", "AI", "AL", "AM", "AO", "AQ", "AR", "AS", "AT", "AU", "AW", "AX", "AZ", "BA",
    "BB", "BD", "BE", "BF", "BG", "BH", "BI", "BJ", "BL", "BM", "BN", "BO", "BQ", "BR", "BS", "BT", "BV",
    "BW", "BY", "BZ", "CA", "CC", "CD", "CF", "CG", "CH", "CI", "CK", "CL", "CM", "CN", "CO", "CR", "CU",
    "CV", "CW", "CX", "CY", "CZ", "DE", "DJ", "DK", "DM", "DO", "DZ", "EC", "EE", "EG", "EH", "ER", "ES",
    "ET", "FI", "FJ", "FK", "FM", "FO", "FR", "GA", "GB", "GD", "GE", "GF", "GG", "GH", "GI", "GL", "GM",
    "GN", "GP", "GQ", "GR", "GS", "GT", "GU", "GW", "GY", "HK", "HM", "HN", "HR", "HT", "HU", "ID", "IE",
    "IL", "IM", "IN", "IO", "IQ", "IR", "IS", "IT", "JE", "JM", "JO", "JP", "KE", "KG", "KH", "KI", "KM",
    "KN", "KP", "KR", "KW", "KY", "KZ", "LA", "LB", "LC", "LI", "LK", "LR", "LS", "LT", "LU", "LV", "LY",
    "MA", "MC", "MD", "ME", "MF", "MG", "MH", "MK", "ML", "MM", "MN", "MO", "MP", "MQ", "MR", "MS", "MT",
    "MU", "MV", "MW", "MX", "MY", "MZ", "NA", "NC", "NE", "NF", "NG", "NI", "NL", "NO", "NP", "NR", "NU",
    "NZ", "OM", "PA", "PE", "PF", "PG", "PH", "PK", "PL", "PM", "PN", "PR", "PS", "PT", "PW", "PY", "QA",
    "RE", "RO", "RS", "RU", "RW", "SA", "SB", "SC", "SD", "SE", "SG", "SH", "SI", "SJ", "SK", "SL", "SM",
    "SN", "SO", "SR", "SS", "ST", "SV", "SX", "SY", "SZ", "TC", "TD", "TF", "TG", "TH", "TJ", "TK", "TL",
    "TM", "TN", "TO", "TR", "TT", "TV", "TW", "TZ", "UA", "UG", "UM", "US", "UY", "UZ", "VA", "VC", "VE",
    "VG", "VI", "VN", "VU", "WF", "WS", "YE", "YT", "ZA", "ZM", "ZW",
];

/// Why a country was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a country code: give two letters of ISO 3166-1 (RU, GB, JP, …) or nothing")]
pub struct NotACountry(pub String);

/// The stored form of `code` (two capital letters), if it names a country; any case is taken.
pub fn country(code: &str) -> Result<&'static str, NotACountry> {
    let upper = code.trim().to_ascii_uppercase();
    COUNTRIES
        .binary_search(&upper.as_str())
        .map(|i| COUNTRIES[i])
        .map_err(|_| NotACountry(code.chars().take(20).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_is_sorted_unique_and_two_capitals_each() {
        assert!(COUNTRIES.windows(2).all(|w| w[0] < w[1]));
        assert!(COUNTRIES
            .iter()
            .all(|c| c.len() == 2 && c.bytes().all(|b| b.is_ascii_uppercase())));
    }

    #[test]
    fn codes_are_taken_in_any_case_and_others_refused() {
        assert_eq!(country("ru"), Ok("RU"));
        assert_eq!(country(" Gb "), Ok("GB"));
        assert_eq!(country("UK"), Err(NotACountry("UK".into())));
        assert!(country("").is_err());
        assert!(country("RUS").is_err());
        assert!(country("<b>").is_err());
    }
}
