package org.chartstream.app.privacy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The two scanners the privacy and boundary test relies on find what they are there to find. */
class PrivacyScannersTest {
    private static final SensitiveTerms TERMS = new SensitiveTerms(List.of("Who has been prescribed lisinopril?"),
            List.of("Martha Collins", "Martha", "Collins", "MRN-000001", "2f0c9a8e-1b2c-3d4e-8f00-112233445566"));

    @Test
    void aPlantedQuestionNameNumberOrIdIsFound() {
        assertThat(TERMS.findIn("12:00:01.000 [query-worker] INFO QueryProcessor - request 42 answered")).isEmpty();
        assertThat(TERMS.findIn("WARN x - question Who has been prescribed lisinopril? failed")).hasSize(1);
        assertThat(TERMS.findIn("INFO ingest - row of collins embedded")).hasSize(1);
        assertThat(TERMS.findIn("ERROR duplicate key (patient_no)=(MRN-000001)")).hasSize(1);
        assertThat(TERMS.findIn("DEBUG chunk ehr:patients:2f0c9a8e-1b2c-3d4e-8f00-112233445566:0:1")).hasSize(1);
        assertThat(TERMS.findIn("one line\nMartha Collins\nanother\nMartha")).hasSize(2);
    }

    @Test
    void namesMatchAsWholeWordsOnly() {
        assertThat(TERMS.findIn("INFO recollinsertion marthaX")).isEmpty();
    }

    @Test
    void loopbackUnixAndNetlinkPeersAreLocalAndAnythingElseIsNot() {
        String trace = String.join("\n",
                "101 connect(5, {sa_family=AF_INET, sin_port=htons(41259), sin_addr=inet_addr(\"127.0.0.1\")}, 16) = -1 EINPROGRESS",
                "102 connect(7, {sa_family=AF_INET6, sin6_port=htons(5432), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, \"::1\", &sin6_addr), sin6_scope_id=0}, 28) = 0",
                "103 connect(4, {sa_family=AF_UNIX, sun_path=\"/var/run/nscd/socket\"}, 110) = -1 ENOENT",
                "104 sendto(9, [{nlmsg_len=20}], 20, 0, {sa_family=AF_NETLINK, nl_pid=0, nl_groups=00000000}, 12) = 20",
                "105 connect(8, {sa_family=AF_INET, sin_port=htons(443), sin_addr=inet_addr(\"93.184.216.34\")}, 16) = -1 ENETUNREACH",
                "106 sendto(8, \"\\1\\2\", 2, 0, {sa_family=AF_INET6, sin6_port=htons(53), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, \"2001:4860:4860::8888\", &sin6_addr), sin6_scope_id=0}, 28) = 2",
                "107 sendto(3, \"x\", 1, MSG_NOSIGNAL, NULL, 0) = 1",
                "108 +++ exited with 0 +++");
        List<ConnectionTrace.Peer> peers = ConnectionTrace.peers(trace);
        assertThat(peers).hasSize(6);
        assertThat(peers.get(0)).extracting(ConnectionTrace.Peer::address, ConnectionTrace.Peer::port).containsExactly("127.0.0.1", 41259);
        assertThat(peers.get(1).address()).isEqualTo("::1");
        assertThat(peers).filteredOn(p -> !p.local()).extracting(ConnectionTrace.Peer::address)
                .containsExactly("93.184.216.34", "2001:4860:4860::8888");
    }
}
