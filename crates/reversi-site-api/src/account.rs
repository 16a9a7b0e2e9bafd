//! Accounts: signing up and in, the account signed in, its settings and its bot token.

use serde::{Deserialize, Serialize};

/// Body of `POST /api/account/signup` and `/login`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct NameAndPassword {
    /// The username.
    pub name: String,
    /// The password.
    pub password: String,
}

/// Body of `POST /api/account/password`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct PasswordChange {
    /// The password now.
    pub current: String,
    /// The new one.
    pub new: String,
}

/// Body of `POST /api/account/chat`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct ChatSetting {
    /// Chat off (`true`) or on.
    pub off: bool,
}

/// Body of `POST /api/account/bot` and `/delete`: the password, asked again.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct Confirm {
    /// The account's password.
    pub password: String,
}

/// The account signed in, as its owner sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AccountView {
    /// The username.
    pub name: String,
    /// Whether it is a bot.
    pub bot: bool,
    /// Whether its owner turned chat off.
    pub chat_off: bool,
}

/// The answer of `GET /api/account` and of signing up, in or out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Me {
    /// The account (`null`: nobody is signed in).
    pub user: Option<AccountView>,
}

/// The answer of `POST /api/account/bot`: the API token, shown once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BotToken {
    /// `bot_…`: send it as `Authorization: Bearer TOKEN`.
    pub token: String,
}
