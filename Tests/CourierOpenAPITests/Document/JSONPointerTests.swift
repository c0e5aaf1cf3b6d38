import CourierPrimitives
import Testing

@testable import CourierOpenAPI

@Suite struct JSONPointerTests {
    @Test func escapesRoundTrip() throws {
        let pointer = try JSONPointer(parsing: "/paths/~1pets~1{id}/a~0b")
        #expect(pointer.tokens == ["paths", "/pets/{id}", "a~b"])
        #expect(pointer.description == "/paths/~1pets~1{id}/a~0b")
        #expect(JSONPointer.root.description == "")
        #expect(try JSONPointer(parsing: "").tokens.isEmpty)
    }

    @Test func fragmentsArePercentDecoded() throws {
        let pointer = try JSONPointer(fragment: "/components/schemas/Pet%20Name")
        #expect(pointer.tokens == ["components", "schemas", "Pet Name"])
        #expect(pointer.uriFragment == "#/components/schemas/Pet%20Name")
        #expect(try JSONPointer(fragment: "/paths/~1a%7Bb%7D").tokens == ["paths", "/a{b}"])
    }

    @Test func malformedPointersAreRefused() {
        #expect(throws: JSONPointerError.self) { try JSONPointer(parsing: "paths") }
        #expect(throws: JSONPointerError.self) { try JSONPointer(parsing: "/a~2") }
        #expect(throws: JSONPointerError.self) { try JSONPointer(parsing: "/a~") }
    }

    @Test func resolvesObjectsAndArrays() throws {
        let value: JSONValue = .object(["a": .array([.int(1), .object(["b/c": .bool(true)])])])
        #expect(try JSONPointer(parsing: "/a/1/b~1c").resolve(in: value) == .bool(true))
        #expect(try JSONPointer(parsing: "/a/0").resolve(in: value) == .int(1))
        #expect(try JSONPointer(parsing: "/a/01").resolve(in: value) == nil)
        #expect(try JSONPointer(parsing: "/a/5").resolve(in: value) == nil)
        #expect(try JSONPointer(parsing: "/x").resolve(in: value) == nil)
    }
}
