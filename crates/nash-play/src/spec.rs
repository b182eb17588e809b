//! Player specs: `name` or `name:key=value,key=value`, parsed once and read as typed settings.

use std::fmt;
use std::str::FromStr;

/// Why a player spec was refused; each message names the bad part.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// No player has this name.
    #[error("unknown player '{name}' (players: {known})")]
    UnknownPlayer {
        /// The name given.
        name: String,
        /// The names there are, comma-separated.
        known: String,
    },
    /// The player has no such setting.
    #[error("player '{player}' has no setting '{key}' (settings: {known})")]
    UnknownSetting {
        /// The player.
        player: String,
        /// The setting given.
        key: String,
        /// The settings it has, comma-separated.
        known: String,
    },
    /// A setting's value does not parse or is out of range.
    #[error("bad value '{value}' for setting '{key}': expected {expected}")]
    BadValue {
        /// The setting.
        key: String,
        /// The value given.
        value: String,
        /// What is accepted.
        expected: String,
    },
    /// The spec is not `name` or `name:key=value,...`.
    #[error("bad player spec '{0}': expected NAME or NAME:KEY=VALUE,KEY=VALUE")]
    Malformed(String),
}

/// A parsed spec: a player name and its settings in the order given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The player's name.
    pub name: String,
    /// The settings, `key=value`, in the order given (a key given twice keeps the last value).
    pub settings: Vec<(String, String)>,
}

impl FromStr for Spec {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<Spec, SpecError> {
        let malformed = || SpecError::Malformed(s.to_string());
        let (name, rest) = match s.trim().split_once(':') {
            Some((n, r)) => (n.trim(), Some(r)),
            None => (s.trim(), None),
        };
        let valid_name = |n: &str| {
            !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        };
        if !valid_name(name) {
            return Err(malformed());
        }
        let mut settings = Vec::new();
        if let Some(rest) = rest {
            for item in rest.split(',').map(str::trim).filter(|i| !i.is_empty()) {
                let (k, v) = item.split_once('=').ok_or_else(malformed)?;
                let (k, v) = (k.trim(), v.trim());
                if !valid_name(k) || v.is_empty() {
                    return Err(malformed());
                }
                settings.retain(|(key, _): &(String, String)| key != k);
                settings.push((k.to_string(), v.to_string()));
            }
        }
        Ok(Spec { name: name.to_string(), settings })
    }
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        for (i, (k, v)) in self.settings.iter().enumerate() {
            write!(f, "{}{k}={v}", if i == 0 { ':' } else { ',' })?;
        }
        Ok(())
    }
}

/// Reads a spec's settings as typed values, then refuses any setting nobody read.
#[derive(Debug)]
pub struct Settings {
    spec: Spec,
    read: Vec<&'static str>,
}

impl Settings {
    /// Starts reading `spec`.
    pub fn new(spec: Spec) -> Settings {
        Settings { spec, read: Vec::new() }
    }

    /// The value of `key` parsed as `T`, or `default` when absent; `expected` describes the
    /// accepted values for the error message.
    pub fn get<T: FromStr>(
        &mut self,
        key: &'static str,
        default: T,
        expected: &str,
    ) -> Result<T, SpecError> {
        self.get_checked(key, default, expected, |_| true)
    }

    /// As [`get`](Settings::get), also refusing values for which `ok` is false.
    pub fn get_checked<T: FromStr>(
        &mut self,
        key: &'static str,
        default: T,
        expected: &str,
        ok: impl Fn(&T) -> bool,
    ) -> Result<T, SpecError> {
        self.read.push(key);
        match self.spec.settings.iter().find(|(k, _)| k == key) {
            None => Ok(default),
            Some((_, v)) => match v.parse::<T>() {
                Ok(x) if ok(&x) => Ok(x),
                _ => Err(SpecError::BadValue {
                    key: key.to_string(),
                    value: v.clone(),
                    expected: expected.to_string(),
                }),
            },
        }
    }

    /// Checks that every setting given was read.
    pub fn finish(self) -> Result<(), SpecError> {
        match self.spec.settings.iter().find(|(k, _)| !self.read.contains(&k.as_str())) {
            None => Ok(()),
            Some((k, _)) => Err(SpecError::UnknownSetting {
                player: self.spec.name.clone(),
                key: k.clone(),
                known: self.read.join(", "),
            }),
        }
    }
}

/// A setting's value that is not one of the names it takes (`FromStr` of the settings whose
/// values are words); [`Settings`] reports it as [`SpecError::BadValue`] with the names there
/// are.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown value '{0}'")]
pub struct UnknownValue(pub String);

/// Writes a settings type's `read` (each setting of a spec parsed over the defaults held),
/// `settings_text` (every setting spelled out, `key=value,...`, as canonical specs give them)
/// and `KEYS` (the settings' names, in that order), from one table with one row a setting:
///
/// `"key" => field: "what is accepted";`, with `, if |v| check` to refuse values beyond a
/// range, and `field as Wrapper` for a field read and shown through a newtype.
macro_rules! settings_table {
    ($ty:ident {
        $($key:literal => $field:ident $(as $wrap:ident)?: $expected:expr $(, if $check:expr)?;)*
    }) => {
        impl $ty {
            /// The settings' names, in the order specs spell them out.
            pub(crate) const KEYS: &'static [&'static str] = &[$($key),*];

            /// Reads the settings of a spec over these defaults.
            pub(crate) fn read(
                mut self,
                s: &mut $crate::spec::Settings,
            ) -> Result<$ty, $crate::spec::SpecError> {
                $(self.$field = settings_table!(
                    @get s, $key, self.$field, [$($wrap)?], &$expected, [$($check)?]
                );)*
                Ok(self)
            }

            /// Every setting with its value, `key=value,...`, in the order of `KEYS`.
            pub(crate) fn settings_text(&self) -> String {
                let parts: &[String] = &[$(
                    format!("{}={}", $key, settings_table!(@show self.$field, [$($wrap)?]))
                ),*];
                parts.join(",")
            }
        }
    };
    (@get $s:ident, $key:literal, $value:expr, [], $expected:expr, []) => {
        $s.get($key, $value, $expected)?
    };
    (@get $s:ident, $key:literal, $value:expr, [], $expected:expr, [$check:expr]) => {
        $s.get_checked($key, $value, $expected, $check)?
    };
    (@get $s:ident, $key:literal, $value:expr, [$wrap:ident], $expected:expr, [$check:expr]) => {
        $s.get_checked($key, $wrap($value), $expected, $check)?.0
    };
    (@show $value:expr, []) => {
        $value
    };
    (@show $value:expr, [$wrap:ident]) => {
        $wrap($value)
    };
}

pub(crate) use settings_table;
