import CourierPrimitives
import Foundation
import MockServer
import SocialBackend
import Testing

@Suite struct ProviderStatesTests {
    func post(_ backend: SocialBackend, _ body: String, path: String = SocialBackend.providerStatesPath)
        -> ServerResponse?
    {
        backend.handle(
            ServerRequest(
                method: "POST", target: path, headers: ["Content-Type": "application/json"],
                body: Data(body.utf8)))
    }

    @Test func statesSetTheBackendUpAndUnknownOnesAreRefused() throws {
        let backend = try SocialBackend(providerStates: true)
        defer { backend.removeStorage() }
        #expect(post(backend, #"{"action":"setup","params":{},"state":"sample data exists"}"#)?.status == 200)
        #expect(backend.counts.posts == 3)
        #expect(post(backend, #"{"action":"setup","params":{},"state":"sample data exists"}"#)?.status == 200)
        #expect(backend.counts.posts == 3)
        #expect(
            post(backend, #"{"action":"setup","params":{"token":"t1"},"state":"a user is signed in"}"#)?
                .status == 200)
        let me = backend.handle(
            ServerRequest(method: "GET", target: "/me", headers: ["Authorization": "Bearer t1"]))
        #expect(me?.status == 200)
        #expect(post(backend, #"{"action":"setup","params":{},"state":""}"#)?.status == 200)
        #expect(post(backend, #"{"action":"setup","params":{},"state":"the moon is full"}"#)?.status == 400)
        #expect(post(backend, "not json")?.status == 400)
    }

    @Test func theEndpointIsOffUnlessAskedFor() throws {
        let backend = try SocialBackend()
        defer { backend.removeStorage() }
        #expect(post(backend, #"{"action":"setup","params":{},"state":"sample data exists"}"#) == nil)
    }
}
