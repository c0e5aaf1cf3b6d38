import Courier
import Testing

@Test func headerLookupIsCaseInsensitive() {
    var headers: HTTPHeaders = ["Content-Type": "application/json"]
    #expect(headers["content-type"] == "application/json")
    headers["CONTENT-TYPE"] = "text/plain"
    #expect(headers.count == 1)
    #expect(headers["Content-Type"] == "text/plain")
}
