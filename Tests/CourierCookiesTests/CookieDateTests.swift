import Foundation
import Testing

@testable import Courier
@testable import CourierCookies

/// `Expires` is read with RFC 6265's cookie-date algorithm (§5.1.1), which takes the forms servers
/// send: tokens in any order, any delimiters, two-digit years.
@Suite struct CookieDateTests {
    /// 2019-08-07 08:04:19 UTC.
    static let august2019 = Date(timeIntervalSince1970: 1_565_165_059)

    @Test(
        "accepted forms",
        arguments: [
            "Fri, 07 Aug 2019 08:04:19 GMT",  // RFC 1123
            "Fri 07 Aug 2019 08:04:19 GMT",  // no comma
            "07 Aug 2019 08:04:19 GMT",  // no weekday
            "Friday, 07-Aug-19 08:04:19 GMT",  // RFC 850, two-digit year
            "Fri Aug  7 08:04:19 2019",  // asctime
            "Fri, 07-Aug-2019 08:04:19 GMT",  // dashed, four-digit year
            "fri, 07 AUGUST 2019 08:04:19 gmt",  // case, a long month name
            "2019 Aug 07 08:04:19",  // tokens in another order
            "Fri, 7 Aug 2019 8:4:19 GMT",  // one-digit fields
            "Fri, 07 Aug 2019 08:04:19 GMT+0200",  // what follows the tokens is ignored
            "Fri,07/Aug/2019;08:04:19",  // any delimiters
        ])
    func accepted(text: String) {
        #expect(CookieDate.parse(text) == Self.august2019, "\(text)")
    }

    @Test(
        "two-digit years",
        arguments: [
            ("07 Aug 70 00:00:00", 1970), ("07 Aug 99 00:00:00", 1999), ("07 Aug 00 00:00:00", 2000),
            ("07 Aug 69 00:00:00", 2069),
        ])
    func twoDigitYears(text: String, year: Int) {
        let date = CookieDate.parse(text)
        let calendar = Calendar(identifier: .gregorian)
        #expect(date.map { calendar.dateComponents(in: TimeZone(identifier: "UTC")!, from: $0).year } == year)
    }

    @Test(
        "refused",
        arguments: [
            "", "Fri, 07 Aug 2019", "07 Aug 2019 08:04", "Fri, 07 2019 08:04:19 GMT",
            "Fri, 07 Aug 08:04:19 GMT",
            "Fri, 32 Aug 2019 08:04:19 GMT", "Fri, 00 Aug 2019 08:04:19 GMT", "Fri, 07 Aug 2019 24:00:00 GMT",
            "Fri, 07 Aug 2019 08:60:00 GMT", "Fri, 07 Aug 2019 08:04:60 GMT", "Fri, 07 Aug 1600 08:04:19 GMT",
            "Fri, 31 Feb 2019 08:04:19 GMT", "Fri, 07 Aug 12345 08:04:19 GMT",
            "Fri, 007 Aug 2019 08:04:19 GMT",
            "tomorrow",
        ])
    func refused(text: String) {
        #expect(CookieDate.parse(text) == nil, "\(text)")
    }

    /// An `Expires` in the past, in a form the HTTP-date parser did not take, deletes the cookie.
    @Test(
        "a past Expires in any form deletes",
        arguments: [
            "Fri 07 Aug 2019 08:04:19 GMT", "07 Aug 2019 08:04:19 GMT", "Fri, 07-Aug-19 08:04:19 GMT",
        ])
    func pastExpiresDeletes(date: String) {
        let site = URL(string: "https://www.example.com/")!
        let jar = CookieJar()
        jar.store(from: HTTPHeaders([("Set-Cookie", "a=1; Path=/")]), for: site)
        jar.store(from: HTTPHeaders([("Set-Cookie", "a=1; Path=/; Expires=\(date)")]), for: site)
        #expect(jar.cookieHeader(for: site) == nil, "\(date)")
    }
}
