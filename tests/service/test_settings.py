"""The app's settings (service/settings.py, README "Configuration"): a setting that the app
could not use, or that would leave it refusing every request of a kind, stops it at start with a
message naming the setting and the form it takes, rather than a library's traceback or a service
that answers nobody; and gunicorn.conf.py's own settings likewise."""

import dataclasses
import re
from pathlib import Path

import pytest

from service.settings import Settings, read
from tests.server import refused_at_start


def refusal(**settings: str) -> str:
    """The message `settings` are refused with (from the app's config, nothing from the
    environment)."""
    with pytest.raises(ValueError) as refused:
        read(settings, {})
    return str(refused.value)


@pytest.mark.parametrize("name", ["DIGSITE_RATE_LIMIT", "DIGSITE_THINKING_LIMIT"])
@pytest.mark.parametrize("limit", ["0/minute", "20/minute;0/hour", "0 per second"])
def test_a_budget_of_nothing_is_refused_pointing_at_off(name, limit):
    """0/minute was taken, and then every request of its kind was refused for good."""
    assert refusal(**{name: limit}) == (
        f"{name}: {limit!r} allows nothing: every request of its kind would be refused for good. "
        "Write a number above 0, as in '20/minute;200/hour', or 'off' to turn the limits off.")


@pytest.mark.parametrize(("name", "limit"), [("DIGSITE_RATE_LIMIT", "1/minute;10/hour"),
                                             ("DIGSITE_THINKING_LIMIT", "1/second"),
                                             ("DIGSITE_RATE_LIMIT", "off")])
def test_budgets_above_nothing_and_off_are_taken(name, limit):
    assert getattr(read({name: limit}, {}), name.lower()) == limit


@pytest.mark.parametrize("name", ["DIGSITE_RATE_LIMIT", "DIGSITE_THINKING_LIMIT"])
@pytest.mark.parametrize("limit", ["20/0 minutes", "20/minute;200 per 00 hours"])
def test_a_budget_over_no_time_is_refused(name, limit):
    """20/0 minutes was counted as 20 a minute: the limits library reads a 0 there as no number."""
    assert refusal(**{name: limit}) == (
        f"{name}: {limit!r} counts over no time at all. Write a number of seconds, minutes, "
        "hours or days above 0, as in '20/minute;200/hour' or '100/2 hours'.")


SENTINEL = ("a Redis Sentinel is written redis+sentinel://HOST:PORT[,HOST:PORT...]/SERVICE, "
            "its sentinels and the name of the service they watch, such as "
            "redis+sentinel://s1:26379,s2:26379/mymaster.")
CLUSTER = ("a Redis Cluster is written redis+cluster://HOST:PORT[,HOST:PORT...], some of its "
           "nodes, such as redis+cluster://n1:7000,n2:7000.")


@pytest.mark.parametrize(("storage", "form"), [
    ("redis+sentinel://", SENTINEL),
    ("redis+sentinel://127.0.0.1:26379", SENTINEL),
    ("redis+sentinel://127.0.0.1:26379/", SENTINEL),
    ("redis+sentinel:///mymaster", SENTINEL),
    ("redis+sentinel://s1/mymaster", SENTINEL),
    ("redis+sentinel://s1:99999/mymaster", SENTINEL),
    ("redis+cluster://", CLUSTER),
    ("redis+cluster://n1", CLUSTER),
    ("redis+cluster://n1:port", CLUSTER),
])
def test_a_sentinel_or_cluster_the_limits_cannot_reach_is_refused_with_its_form(storage, form):
    """They stopped the app with the limits library's "'service_name' not provided" or redis-py's
    RedisClusterException, neither naming the setting."""
    assert refusal(DIGSITE_RATE_LIMIT_STORAGE=storage) == (
        f"DIGSITE_RATE_LIMIT_STORAGE: {storage!r} is no store the limits can count in: {form}")


def test_a_sentinels_password_is_not_written_out():
    assert "secret" not in refusal(DIGSITE_RATE_LIMIT_STORAGE="redis+sentinel://:secret@s1:26379")


@pytest.mark.parametrize("storage", ["redis+sentinel://s1:26379,s2:26379/mymaster",
                                     "redis+sentinel://:secret@s1:26379/mymaster",
                                     "redis+cluster://n1:7000,n2:7000",
                                     "redis+cluster://:secret@n1:7000"])
def test_sentinels_and_clusters_written_out_whole_are_taken(storage):
    assert read({"DIGSITE_RATE_LIMIT_STORAGE": storage}, {}).digsite_rate_limit_storage == storage


@pytest.mark.parametrize("origin", ["not an origin", "a.example", "https://a.example/path",
                                    "https://a.example?x=1", "https://a.example#top",
                                    "https://user@a.example", "https://a.example:99999",
                                    "https://a.example:abc", "https://", "null", "1http://a"])
def test_what_is_no_origin_is_refused(origin):
    """They were taken, and matched no browser's Origin ever."""
    assert refusal(DIGSITE_CORS_ORIGINS=f"https://b.example, {origin}") == (
        f"DIGSITE_CORS_ORIGINS: {origin!r} is no origin: write each as scheme://host[:port], "
        "such as https://app.example or http://localhost:5173 (no path), comma-separated, or *.")


def test_origins_are_taken():
    listed = "https://a.example, http://localhost:5173/, http://[::1]:8080,app://local"
    assert read({"DIGSITE_CORS_ORIGINS": listed}, {}).digsite_cors_origins == (
        "https://a.example", "http://localhost:5173", "http://[::1]:8080", "app://local")
    assert read({"DIGSITE_CORS_ORIGINS": "*"}, {}).digsite_cors_origins == ("*",)


@pytest.mark.parametrize("host", ["example.org:99999", "example.org:abc", "example.org:0",
                                  "example.org:", ":8080", "exa mple.org", "example.org/hook",
                                  "user@example.org", "https://example.org", "exämple.org"])
def test_what_is_no_host_for_webhooks_is_refused(host):
    """A port past 65535 or a word was taken, and refused every webhook to that host."""
    assert refusal(DIGSITE_WEBHOOK_HOSTS=f"hooks.example, {host}") == (
        f"DIGSITE_WEBHOOK_HOSTS: {host.lower()!r} is no host: write each as a host name or "
        "address, or host:port (a port from 1 to 65535), such as hooks.example.org or "
        "127.0.0.1:8080, comma-separated.")


@pytest.mark.parametrize("value", ["abc", "0", "-1", "3601", "nan", "1e999"])
def test_a_time_that_is_no_number_of_seconds_is_refused_with_its_form(value):
    """A word was refused with Python's own "could not convert string to float: 'abc'"."""
    assert refusal(DIGSITE_CLOCK_POLL_SECONDS=value) == (
        f"DIGSITE_CLOCK_POLL_SECONDS: {value!r} is not a number of seconds above 0 and at most "
        "3600.")


@pytest.mark.parametrize("name", ["DIGSITE_CLOCK_POLL_SECONDS", "DIGSITE_DATABASE_SECONDS",
                                  "DIGSITE_BODY_SECONDS"])
def test_every_time_setting_is_read_as_seconds(name):
    assert refusal(**{name: "0"}) == (
        f"{name}: '0' is not a number of seconds above 0 and at most 3600.")
    assert getattr(read({name: "2.5"}, {}), name.lower()) == 2.5


def test_hosts_for_webhooks_are_taken():
    assert read({"DIGSITE_WEBHOOK_HOSTS": "Hooks.Example, 127.0.0.1:8080, ::1"},
                {}).digsite_webhook_hosts == ("hooks.example", "127.0.0.1:8080", "::1")


@pytest.mark.parametrize("url", ["redis://127.0.0.1:6379/notadb", "redis://127.0.0.1:6379/-1",
                                 "rediss://cache:6380/0x1"])
def test_a_redis_url_whose_database_is_no_number_is_refused(url):
    """redis-py reads no number there as no database at all, and used database 0."""
    assert refusal(DIGSITE_REDIS_URL=url) == (
        f"DIGSITE_REDIS_URL: {url!r} is no Redis URL: write one such as "
        "redis://127.0.0.1:6379/0, rediss://host:6380/0 (TLS) or unix:///run/redis.sock.")
    assert refusal(DIGSITE_RATE_LIMIT_STORAGE=url).startswith(
        f"DIGSITE_RATE_LIMIT_STORAGE: {url!r} is no store the limits can count in")


@pytest.mark.parametrize("url", ["redis://127.0.0.1:6379", "redis://127.0.0.1:6379/",
                                 "redis://127.0.0.1:6379/15"])
def test_redis_urls_with_or_without_a_database_number_are_taken(url):
    assert read({"DIGSITE_REDIS_URL": url}, {}).redis_url == url


def test_an_access_log_gunicorn_cannot_write_stops_the_server_naming_the_setting(tmp_path):
    """gunicorn said "Error: '/nonexistent/dir/a.log' isn't writable", naming no setting."""
    path = tmp_path / "nonexistent" / "a.log"
    lines = refused_at_start(tmp_path, DIGSITE_ACCESS_LOG=str(path))
    assert any(f"DIGSITE_ACCESS_LOG is the file gunicorn appends its access log to (- for "
               f"standard output), one it can write, not {str(path)!r}: No such file or "
               "directory" in line for line in lines), lines


@pytest.mark.parametrize(("name", "value", "said"), [
    ("DIGSITE_RATE_LIMIT", "0/minute", "'0/minute' allows nothing"),
    ("DIGSITE_BODY_SECONDS", "abc", "'abc' is not a number of seconds"),
    ("DATABASE_URL", "postgresql://u:secret@h:notaport/db", "'postgresql://u:***@h:notaport/db'"),
])
def test_a_setting_the_app_cannot_read_stops_the_server_in_words_not_a_traceback(
        tmp_path, name, value, said):
    """Each worker logged "Exception in worker process" and 30 lines of traceback around the
    words, and a host read a crash."""
    lines = refused_at_start(tmp_path, **{name: value})
    refusals = [line for line in lines if f"[ERROR] Error: {name}: " in line]
    assert refusals and all(said in line for line in refusals), lines
    assert "secret" not in "\n".join(lines)
    assert any(line.endswith("Reason: Worker failed to boot.") for line in lines), lines


def test_every_setting_the_server_reads_is_in_the_readme_s_table():
    """README "Configuration" lists each setting by its name: FORWARDED_ALLOW_IPS, which
    gunicorn.conf.py reads behind a proxy, was missing from it."""
    root = Path(__file__).resolve().parents[2]
    table = set(re.findall(r"^\| `([A-Z_]+)` \|", (root / "README.md").read_text(), re.M))
    app = {field.name.upper() for field in dataclasses.fields(Settings)}
    server = set(re.findall(r'(?:environ\.get|whole_number|bind_address|access_log)\("([A-Z_]+)"',
                            (root / "gunicorn.conf.py").read_text()))
    assert "FORWARDED_ALLOW_IPS" in server and "DIGSITE_BIND" in server  # the pattern finds them
    assert sorted((app | server) - table) == []
    assert sorted(table - app - server) == []  # and none it lists is read by nobody
