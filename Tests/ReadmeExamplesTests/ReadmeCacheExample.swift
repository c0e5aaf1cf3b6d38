import Courier
import CourierCache
import CourierCookies
import CourierInterceptors
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Signs in (the server answers with a session cookie and a redirect), then reads the
/// profile twice: the second read comes from the HTTP cache, without asking the server.
func signInAndReadProfile(baseURL: URL, transport: any Transport, cacheFolder: URL) async throws
    -> [ResponseSource]
{
    let cache = try HTTPCache(directory: cacheFolder, maxBytes: 32 << 20)
    let jar = CookieJar()  // or: try CookieJar(file: cookiesFile), to keep them between runs
    let manager = NetworkManager(
        transport: transport, baseURL: baseURL, interceptors: [RetryPolicy(), cache], cookieJar: jar)

    var login = URLRequest(url: baseURL.appendingPathComponent("login"))
    login.httpMethod = "POST"
    _ = try await manager.sendRaw(login)  // 303 with Set-Cookie: the next hop already sends it
    var sources: [ResponseSource] = []
    for _ in 0..<2 {
        let profile = try await manager.sendRaw(URLRequest(url: baseURL.appendingPathComponent("profile")))
        sources.append(profile.source)  // .network, then .cache while fresh (.revalidated after a 304)
    }
    return sources
}
