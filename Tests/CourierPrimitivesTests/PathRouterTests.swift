import Testing

@testable import CourierPrimitives

/// The one router of path templates: declarations, documents and stubs route by these rules.
@Suite struct PathRouterTests {
    let router = PathRouter<String>([
        (method: "GET", template: "/pets/mine", value: "mine"),
        (method: "GET", template: "/pets/{id}", value: "pet"),
        (method: "DELETE", template: "/pets/{petId}", value: "remove"),
        (method: "GET", template: "/a/{x}/c", value: "x"),
        (method: "GET", template: "/a/b/{y}", value: "y"),
        (method: "GET", template: "/files/{name}.{ext}", value: "file"),
    ])

    private func route(_ method: String, _ path: String) -> String {
        switch router.match(method: method, path: path) {
        case .route(let value, let raw):
            "\(value) "
                + raw.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        case .methodNotAllowed(let allowed): "405 \(allowed.joined(separator: ","))"
        case .noRoute: "404"
        }
    }

    @Test func theConcretePathWinsWhateverTheMethod() {
        #expect(route("GET", "/pets/mine") == "mine ")
        #expect(route("DELETE", "/pets/mine") == "405 GET")
        #expect(route("HEAD", "/pets/mine") == "mine ", "HEAD goes where GET does")
    }

    @Test func templatesThatDifferOnlyInNamesAreOnePath() {
        #expect(route("GET", "/pets/7") == "pet id=7")
        #expect(route("DELETE", "/pets/7") == "remove petId=7")
        #expect(route("PUT", "/pets/7") == "405 DELETE,GET")
    }

    @Test func theEarliestLiteralWinsAmongEquallySpecificTemplates() {
        #expect(route("GET", "/a/b/c") == "y y=c")
        #expect(route("GET", "/a/z/c") == "x x=z")
    }

    @Test func variablesInsideASegmentAndRawValues() {
        #expect(route("GET", "/files/report.pdf") == "file ext=pdf,name=report")
        #expect(route("GET", "/pets/a%20b") == "pet id=a%20b", "values stay percent-encoded")
        #expect(route("GET", "/pets/") == "404", "a variable takes at least one character")
        #expect(route("GET", "/nowhere") == "404")
        #expect(route("GET", "pets/7") == "404", "a path starts with /")
    }
}
