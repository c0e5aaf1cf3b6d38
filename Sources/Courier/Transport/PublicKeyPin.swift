import Foundation

/// The SHA-256 of a server's public key (its DER `SubjectPublicKeyInfo`), for public-key
/// pinning: a connection whose certificate carries another key fails with `.tls`, even if
/// the certificate is otherwise trusted.
///
/// Written as `sha256//` and the base64 digest, the form `curl --pinnedpubkey` takes. Make
/// one from a certificate with:
///
/// ```sh
/// openssl x509 -in cert.pem -pubkey -noout | openssl pkey -pubin -outform der \
///     | openssl dgst -sha256 -binary | base64
/// ```
public struct PublicKeyPin: Sendable, Hashable, CustomStringConvertible {
    /// The 32-byte SHA-256 digest of the public key.
    package let sha256: Data

    /// Reads a pin written as `sha256//BASE64`.
    ///
    /// - Parameter text: `"sha256//"` followed by the base64 SHA-256 of the public key.
    /// - Throws: `CourierError` `.invalidConfiguration` for another prefix, text that is not
    ///   base64, or a digest that is not 32 bytes.
    public init(_ text: String) throws(CourierError) {
        let prefix = "sha256//"
        guard text.hasPrefix(prefix) else {
            throw CourierError(
                .invalidConfiguration,
                "a public-key pin is \"sha256//\" and a base64 digest, got \(text.debugDescription)")
        }
        guard let digest = Data(base64Encoded: String(text.dropFirst(prefix.count))), digest.count == 32
        else {
            throw CourierError(
                .invalidConfiguration,
                "the public-key pin \(text.debugDescription) is not the base64 of a 32-byte SHA-256 digest")
        }
        sha256 = digest
    }

    /// The pin as `sha256//BASE64`.
    public var description: String { "sha256//" + sha256.base64EncodedString() }
}
