//! The error catalogue: every code the API answers, its HTTP status, locale key and message.

/// The error catalogue: one code, HTTP status, locale key and English message each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    BadRequest,
    Unauthorized,
    LoginRequired,
    WrongUrl,
    MethodNotAllowed,
    NotFound,
    PayloadTooLarge,
    RateLimited,
    InvalidParam,
    InvalidEmail,
    InvalidPhone,
    InvalidCode,
    CodeExpired,
    TooManyAttempts,
    ResendTooSoon,
    CaptchaFailed,
    SmsDisabled,
    TaskNotCollectable,
    EventNotReportable,
    ImageRejected,
    WalletMessageInvalid,
    WalletSignatureInvalid,
    WalletNonceInvalid,
    AccountBoundElsewhere,
    LastSignInMethod,
    InvitationInvalid,
    InvitationUsed,
    ProviderDisabled,
    IdentityTokenInvalid,
    UserDenied,
    Forbidden,
    Internal,
    Unavailable,
    UploadTooSlow,
    Banned,
    Blocked,
    DuplicateContent,
    EditWindowClosed,
    AlreadyReported,
    NicknameTaken,
    BalanceShort,
    AlreadyAccepted,
    AlreadyAnswered,
}

impl ErrorKind {
    pub const ALL: [ErrorKind; 43] = [
        Self::BadRequest,
        Self::Unauthorized,
        Self::LoginRequired,
        Self::WrongUrl,
        Self::MethodNotAllowed,
        Self::NotFound,
        Self::PayloadTooLarge,
        Self::RateLimited,
        Self::InvalidParam,
        Self::InvalidEmail,
        Self::InvalidPhone,
        Self::InvalidCode,
        Self::CodeExpired,
        Self::TooManyAttempts,
        Self::ResendTooSoon,
        Self::CaptchaFailed,
        Self::SmsDisabled,
        Self::TaskNotCollectable,
        Self::EventNotReportable,
        Self::ImageRejected,
        Self::WalletMessageInvalid,
        Self::WalletSignatureInvalid,
        Self::WalletNonceInvalid,
        Self::AccountBoundElsewhere,
        Self::LastSignInMethod,
        Self::InvitationInvalid,
        Self::InvitationUsed,
        Self::ProviderDisabled,
        Self::IdentityTokenInvalid,
        Self::UserDenied,
        Self::Forbidden,
        Self::Internal,
        Self::Unavailable,
        Self::UploadTooSlow,
        Self::Banned,
        Self::Blocked,
        Self::DuplicateContent,
        Self::EditWindowClosed,
        Self::AlreadyReported,
        Self::NicknameTaken,
        Self::BalanceShort,
        Self::AlreadyAccepted,
        Self::AlreadyAnswered,
    ];

    /// (code, HTTP status, locale key, English message)
    const fn spec(self) -> (i32, u16, &'static str, &'static str) {
        match self {
            Self::BadRequest => (4000, 400, "error.badRequest", "Bad request"),
            Self::Unauthorized => (401, 401, "error.unauthorized", "Please log in again"),
            Self::LoginRequired => (
                4010,
                401,
                "error.loginRequired",
                "You should connect wallet to login first",
            ),
            Self::WrongUrl => (404, 404, "error.wrongUrl", "Wrong URL!"),
            Self::MethodNotAllowed => (
                4050,
                405,
                "error.methodNotAllowed",
                "Method not allowed, use POST",
            ),
            Self::NotFound => (4040, 404, "error.notFound", "Not found"),
            Self::PayloadTooLarge => (4130, 413, "error.payloadTooLarge", "Request is too large"),
            Self::RateLimited => (
                4290,
                429,
                "error.rateLimited",
                "Too many requests, please try again later",
            ),
            Self::InvalidParam => (4001, 200, "error.invalidParam", "Invalid parameter"),
            Self::InvalidEmail => (
                4101,
                200,
                "error.invalidEmail",
                "Please input the correct email address",
            ),
            Self::InvalidPhone => (
                4102,
                200,
                "error.invalidPhone",
                "Please input the correct phone number",
            ),
            Self::InvalidCode => (4103, 200, "error.invalidCode", "Invalid verification code"),
            Self::CodeExpired => (
                4104,
                200,
                "error.codeExpired",
                "The verification code has expired, please request a new one",
            ),
            Self::TooManyAttempts => (
                4105,
                200,
                "error.tooManyAttempts",
                "Too many failed attempts, please try again later",
            ),
            Self::ResendTooSoon => (
                4106,
                200,
                "error.resendTooSoon",
                "Please wait before requesting another code",
            ),
            Self::CaptchaFailed => (
                4107,
                200,
                "error.captchaFailed",
                "Captcha verification failed",
            ),
            Self::SmsDisabled => (
                4108,
                200,
                "error.smsDisabled",
                "Sign-in by phone is not available",
            ),
            Self::TaskNotCollectable => (
                4201,
                200,
                "error.taskNotCollectable",
                "This task has no award to collect",
            ),
            Self::EventNotReportable => (
                4202,
                200,
                "error.eventNotReportable",
                "This event is recorded by the server",
            ),
            Self::ImageRejected => (
                4301,
                200,
                "error.imageRejected",
                "Only accept type of .png .jpeg .jpg .gif .",
            ),
            Self::WalletMessageInvalid => (
                4401,
                200,
                "error.walletMessageInvalid",
                "Invalid sign-in message",
            ),
            Self::WalletSignatureInvalid => (
                4402,
                200,
                "error.walletSignatureInvalid",
                "The signature does not match the wallet address",
            ),
            Self::WalletNonceInvalid => (
                4403,
                200,
                "error.walletNonceInvalid",
                "This sign-in request has expired or was already used, please try again",
            ),
            Self::AccountBoundElsewhere => (
                4404,
                200,
                "error.accountBoundElsewhere",
                "This account is already bound to another user",
            ),
            Self::LastSignInMethod => (
                4405,
                200,
                "error.lastSignInMethod",
                "You cannot remove your only way to sign in",
            ),
            Self::InvitationInvalid => (
                4501,
                200,
                "error.invitationInvalid",
                "Invalid invitation code",
            ),
            Self::InvitationUsed => (
                4502,
                200,
                "error.invitationUsed",
                "You have already used an invitation code",
            ),
            Self::ProviderDisabled => (
                4406,
                200,
                "error.providerDisabled",
                "This sign-in method is not available",
            ),
            Self::IdentityTokenInvalid => (
                4407,
                200,
                "error.identityTokenInvalid",
                "Sign-in could not be verified, please try again",
            ),
            Self::UserDenied => (4408, 200, "error.userDenied", "You cancelled the sign-in"),
            Self::UploadTooSlow => (
                4080,
                408,
                "error.uploadTooSlow",
                "The upload was too slow, please try again on a faster connection",
            ),
            Self::Forbidden => (4030, 403, "error.forbidden", "You may not do this"),
            Self::Banned => (
                4031,
                403,
                "error.banned",
                "Your account cannot write, comment, like or report until its ban ends",
            ),
            Self::Blocked => (
                4032,
                403,
                "error.blocked",
                "This person does not take replies or mentions from you",
            ),
            Self::DuplicateContent => (
                4601,
                200,
                "error.duplicateContent",
                "You posted the same text a moment ago",
            ),
            Self::EditWindowClosed => (
                4602,
                200,
                "error.editWindowClosed",
                "A comment can be edited only in its first 15 minutes",
            ),
            Self::BalanceShort => (
                4605,
                200,
                "error.balanceShort",
                "Your balance is short of this bounty",
            ),
            Self::AlreadyAccepted => (
                4606,
                200,
                "error.alreadyAccepted",
                "An answer to this question is already accepted",
            ),
            Self::AlreadyAnswered => (
                4607,
                200,
                "error.alreadyAnswered",
                "You have already answered this question; edit your answer instead",
            ),
            Self::NicknameTaken => (
                4604,
                200,
                "error.nicknameTaken",
                "This nickname is taken, try another",
            ),
            Self::AlreadyReported => (
                4603,
                200,
                "error.alreadyReported",
                "You have already reported this",
            ),
            Self::Internal => (
                5000,
                500,
                "error.internal",
                "Something went wrong, please try again",
            ),
            Self::Unavailable => (
                5030,
                503,
                "error.unavailable",
                "Service temporarily unavailable, please try again",
            ),
        }
    }

    pub const fn code(self) -> i32 {
        self.spec().0
    }
    pub const fn http_status(self) -> u16 {
        self.spec().1
    }
    pub const fn key(self) -> &'static str {
        self.spec().2
    }
    pub const fn message(self) -> &'static str {
        self.spec().3
    }

    pub fn from_code(code: i32) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.code() == code)
    }
}
