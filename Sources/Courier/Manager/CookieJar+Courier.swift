import CourierCookies
import Foundation

extension CookieJar {
    /// Creates a jar saved in `file`, reading the cookies it holds (a missing file is an
    /// empty jar). Expired cookies are dropped; session cookies are saved too, so a later run
    /// continues the session. The file is rewritten after every change; a failed write leaves
    /// the jar working in memory.
    /// - Throws: `CourierError` `.invalidConfiguration` when the file exists but is not a
    ///   cookie file.
    public convenience init(file: URL) throws(CourierError) {
        let cookies: [Cookie]
        do {
            cookies = try CookieJar.cookies(inFile: file)
        } catch {
            throw CourierError(
                .invalidConfiguration, "\(file.path) is not a cookie file: \(error)", underlying: error)
        }
        self.init(file: file, holding: cookies)
    }
}
