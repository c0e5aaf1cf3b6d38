import CourierPrimitives
import Foundation
import Testing

@testable import MockServer

/// Near misses are weighed on a snapshot of the stubs, outside the store's lock, so that the other
/// loops' matching (and the admin API) never waits for an unmatched request's report.
@Test func nearMissesAreWeighedOutsideTheStubsLock() throws {
    let store = StubStore(filesDirectory: nil)
    let mappings: JSONValue = try JSONValue.parseStrictly(
        Data(
            #"""
            {"mappings": [
              {"request": {"method": "GET", "urlPath": "/users/1"}, "response": {"status": 200}},
              {"request": {"method": "POST", "urlPath": "/users", "bodyPatterns": [{"equalToJson": {"a": 1}}]},
               "response": {"status": 201}}
            ]}
            """#.utf8))
    for stub in try MappingLoader.mappings(in: mappings, location: "mapping") { store.add(stub) }
    let seen = Locked<[Bool]>([])
    store.nearMissProbe.withLock { probe in
        probe = { [store] in
            let free = store.isUnlocked
            seen.withLock { $0.append(free) }
        }
    }
    let misses = store.nearMisses(RequestView(ServerRequest(method: "POST", target: "/user")), limit: 3)
    #expect(misses.count == 2)
    #expect(seen.withLock { $0 } == [true, true], "the lock was held while weighing")
}
