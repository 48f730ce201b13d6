"""The tools on the built-in data: schemas, argument checks and the documented behaviours."""

from __future__ import annotations

import json
from typing import Any

import pytest
from tautrait_telecom.schema import Billing, Customer, SupportTicket
from tautrait_telecom.tools import ALL_TOOLS

from tautrait_core import Domain, EpisodeDB

UPSTREAM_TOOL_ORDER = [
    "calculate",
    "think",
    "find_customer_by_email",
    "find_customer_by_phone",
    "get_customer_details",
    "get_service_details",
    "get_device_details",
    "get_billing_details",
    "manage_service",
    "troubleshoot_device",
    "create_support_ticket",
    "get_support_ticket_details",
    "add_device",
    "manage_billing",
    "get_services",
    "get_senior_discount",
    "modify_support_ticket",
    "record_payment",
]
JSON_SCHEMA_TYPES = {"string", "integer", "number", "boolean", "array", "object"}
ALICE = "olwen_uchenna_1299"
"""A customer of the built-in data with a mobile plan, DSL internet and a balance."""


def run(domain: Domain, db: EpisodeDB, name: str, **arguments: Any) -> str:
    return domain.run_tool(db, name, arguments)


def test_tools_come_in_upstream_order(domain: Domain) -> None:
    assert [tool.name for tool in domain.tools] == UPSTREAM_TOOL_ORDER
    assert list(domain.terminating_tools) == ["transfer_to_human_support"]
    assert "transfer_to_human_support" not in domain.tools_by_name


@pytest.mark.parametrize("tool", ALL_TOOLS, ids=lambda tool: tool.name)
def test_tool_schemas_are_documented_json_schema_objects(tool) -> None:
    function = tool.schema["function"]
    assert function["name"] == tool.name
    assert len(function["description"]) > 20
    parameters = function["parameters"]
    assert parameters["type"] == "object"
    assert set(parameters["required"]) <= set(parameters["properties"])
    for name, prop in parameters["properties"].items():
        assert prop.get("description"), f"{tool.name}.{name} has no description"
        types = [option.get("type") for option in prop.get("anyOf", [prop])]
        assert set(types) <= JSON_SCHEMA_TYPES, f"{tool.name}.{name}: {prop}"
    json.dumps(tool.schema)


@pytest.mark.parametrize(
    ("name", "arguments"),
    [
        ("get_services", {"customer_id": ALICE}),
        ("troubleshoot_device", {"device_id": "1", "issue": "no_service"}),
        ("get_customer_details", {}),
        ("manage_billing", {"customer_id": ALICE, "paperless": "maybe", "auto_pay": True,
                            "billing_cycle": "monthly"}),
        ("no_such_tool", {}),
    ],
    ids=["extra", "wrong-name", "missing", "not-a-boolean", "unknown-tool"],
)  # fmt: skip
def test_bad_arguments_are_error_observations(
    domain: Domain, db: EpisodeDB, name: str, arguments: dict[str, Any]
) -> None:
    assert run(domain, db, name, **arguments).startswith("Error: ")
    assert not db.changes()


def test_customers_are_found_by_email_in_any_case_and_by_phone_digits(
    domain: Domain, db: EpisodeDB
) -> None:
    email = "olwen.uchenna14@mailbox.example"
    assert run(domain, db, "find_customer_by_email", email=email.upper()) == ALICE
    assert run(domain, db, "find_customer_by_phone", phone="520-214-2017") == ALICE
    assert run(domain, db, "find_customer_by_phone", phone="(520) 214 2017") == ALICE
    assert (
        run(domain, db, "find_customer_by_phone", phone="555")
        == "Error: No customer found with phone number: 555"
    )
    assert (
        run(domain, db, "find_customer_by_email", email="x@y")
        == "Error: No customer found with email address: x@y"
    )


@pytest.mark.parametrize(
    ("device", "issue", "expected"),
    [
        ("Galaxy A55", "battery_drain", "\nTroubleshooting steps: \n1) Restart device \n"
         "2) Check brightness settings and reduce if needed\n3) Close background apps\n"
         "4) Contact support if issue persists\n"),
        ("Desk Phone IP-40", "no_service", "\nTroubleshooting steps: \n1) Restart device \n"
         "2) Check signal coverage \n3) Reset network settings \n"
         "4) Contact support if issue persists\n"),
        ("Mesh WiFi Point", "slow_speeds", "\nTroubleshooting steps: \n"
         "1) Restart router by unplugging for 30 seconds\n2) Check cable connections \n"
         "3) Run speed test \n4) Contact support if needed\n"),
        ("Mesh WiFi Point", "battery_drain", "Unknown issue"),
        ("Streaming Box 4K", "no_service", "\nTroubleshooting steps: \n"
         "1) Check correct input/source \n2) Verify cable connections \n"
         "3) Restart cable box \n4) Contact support if needed\n"),
        ("Streaming Box 4K", "slow_speeds", "Error: NO_SIGNAL"),
        ("Alarm Hub", "no_service", "Unknown issue"),
        ("Alarm Hub", "no_connection", "Error: 'no_connection' is not a valid Issue"),
        ("Tin Can", "no_connection", "Error: 'no_connection' is not a valid Issue"),
        ("Tin Can", "no_service", "Error: Device not found: Tin Can"),
    ],
)  # fmt: skip
def test_troubleshooting_answers_by_device_category(
    domain: Domain, db: EpisodeDB, device: str, issue: str, expected: str
) -> None:
    assert run(domain, db, "troubleshoot_device", device_name=device, issue=issue) == expected


def test_adding_a_service_attaches_devices_and_bills_it(domain: Domain, db: EpisodeDB) -> None:
    out = run(domain, db, "manage_service", customer_id=ALICE, action="add",
              service_id="tv_starter", devices_ids=["1"])  # fmt: skip
    assert out == f"Success: Added service 'Starter TV' to customer {ALICE}"
    customer = db.get(Customer, ALICE)
    assert customer.services[-1] == "tv_starter"
    assert customer.devices[0]["service"] == "tv_starter"
    assert db.get(Billing, ALICE).monthly_charges["tv_starter"] == 40.0
    again = run(domain, db, "manage_service", customer_id=ALICE, action="add",
                service_id="tv_starter")  # fmt: skip
    assert again == f"Error: Customer {ALICE} already has service: tv_starter"


def test_removing_a_service_detaches_its_devices(domain: Domain, db: EpisodeDB) -> None:
    out = run(domain, db, "manage_service", customer_id=ALICE, action="remove",
              service_id="internet_dsl_50")  # fmt: skip
    assert out == (
        f"Success: Removed service 'DSL Internet 50 Mbps' from customer {ALICE}. "
        "Devices ['DSL Modem D1'] are now no longer associated with the service."
    )
    assert db.get(Customer, ALICE).devices[1]["service"] is None
    assert "internet_dsl_50" not in db.get(Billing, ALICE).monthly_charges


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"action": "add"}, "Error: Service ID is required for action: add"),
        ({"action": "pause", "service_id": "tv_starter"},
         "Error: Invalid action: pause. Valid actions are: add, remove, list"),
        ({"action": "add", "service_id": "tv_gold"}, "Error: Service not found: tv_gold"),
        ({"action": "remove", "service_id": "tv_starter"},
         f"Error: Customer {ALICE} does not have service: tv_starter"),
    ],
)  # fmt: skip
def test_service_changes_are_checked(
    domain: Domain, db: EpisodeDB, arguments: dict[str, Any], expected: str
) -> None:
    assert run(domain, db, "manage_service", customer_id=ALICE, **arguments) == expected
    assert not db.changes()


def test_listing_services_shows_catalog_records(domain: Domain, db: EpisodeDB) -> None:
    listed = json.loads(run(domain, db, "manage_service", customer_id=ALICE, action="list"))
    assert listed["customer_id"] == ALICE
    assert [s["service_id"] for s in listed["services"]] == db.get(Customer, ALICE).services


def test_new_devices_get_the_next_id_and_no_service(domain: Domain, db: EpisodeDB) -> None:
    out = run(domain, db, "add_device", customer_id=ALICE, device_name="Pixel 8")
    assert out == f"Success: Added device 'Pixel 8' to customer {ALICE}"
    assert db.get(Customer, ALICE).devices[-1] == {"device_id": "3", "name": "Pixel 8",
                                                   "service": None}  # fmt: skip
    bad = run(domain, db, "add_device", customer_id=ALICE, device_name="pixel 8")
    assert bad == "Error: Invalid device name: pixel 8"


def test_bill_settings_go_to_the_billing_entry_only(domain: Domain, db: EpisodeDB) -> None:
    preferences = dict(db.get(Customer, ALICE).billing_preferences)
    out = json.loads(run(domain, db, "manage_billing", customer_id=ALICE, paperless=False,
                         auto_pay=True, billing_cycle="quarterly"))  # fmt: skip
    assert out["billing"]["billing_cycle"] == "quarterly"
    assert list(out["billing"])[-1] == "billing_cycle"  # a key upstream appends
    assert (out["billing"]["paperless"], out["billing"]["auto_pay"]) == (False, True)
    assert db.get(Customer, ALICE).billing_preferences == preferences


def test_payments_never_take_the_balance_below_zero(domain: Domain, db: EpisodeDB) -> None:
    balance = db.get(Billing, ALICE).current_balance
    receipt = json.loads(run(domain, db, "record_payment", customer_id=ALICE, amount="500",
                             method="check", date="2026-11-02"))  # fmt: skip
    assert receipt == {"customer_id": ALICE, "amount": "500.00", "method": "check",
                       "date": "2026-11-02", "current_balance": "0.00"}  # fmt: skip
    billing = db.get(Billing, ALICE)
    assert balance < 500 and billing.current_balance == 0.0
    assert billing.payment_history[-1] == {"date": "2026-11-02", "amount": 500.0,
                                           "status": "completed"}  # fmt: skip
    assert billing.last_payment["method"] == "check"
    bad = run(domain, db, "record_payment", customer_id=ALICE, amount="lots", method="x", date="d")
    assert bad.startswith("Error: invalid arguments for record_payment: argument 'amount'")


def test_the_senior_discount_is_five_dollars_off(domain: Domain, db: EpisodeDB) -> None:
    assert run(domain, db, "get_senior_discount", original_price="40.00") == "35.00"
    assert run(domain, db, "get_senior_discount", original_price=3) == "0.00"
    assert (
        run(domain, db, "get_senior_discount", original_price="free")
        == "Error: original_price must be a number"
    )


def test_tickets_are_numbered_by_count_and_checked(domain: Domain, db: EpisodeDB) -> None:
    out = run(domain, db, "create_support_ticket", customer_id=ALICE, category="internet")
    assert out == f"Success: Created support ticket TICKET031 for customer {ALICE}"
    ticket = json.loads(run(domain, db, "get_support_ticket_details", ticket_id="TICKET031"))
    assert ticket == {"ticket_id": "TICKET031", "customer_id": ALICE, "status": "open",
                      "priority": "medium", "category": "internet"}  # fmt: skip
    assert run(domain, db, "create_support_ticket", customer_id=ALICE, category="outage") == (
        "Error: Invalid category: outage. Valid categories: mobile, internet, tv, billing, "
        "account, device, security, phone"
    )
    assert (
        run(domain, db, "create_support_ticket", customer_id=ALICE, category="tv", priority="asap")
        == "Error: Invalid priority: asap. Valid priorities: low, medium, high, urgent"
    )


def test_a_ticket_number_in_use_is_overwritten_in_place(domain: Domain, db: EpisodeDB) -> None:
    """Upstream numbers a new ticket by the count of tickets, so after a gap the new ticket
    replaces an existing one and keeps its place."""
    db.delete(db.get(SupportTicket, "TICKET002"))
    db.flush()
    position = db.get(SupportTicket, "TICKET030").position
    run(domain, db, "create_support_ticket", customer_id=ALICE, category="tv")
    replaced = db.get(SupportTicket, "TICKET030")
    assert (replaced.customer_id, replaced.position) == (ALICE, position)


def test_modifying_a_ticket_writes_both_fields(domain: Domain, db: EpisodeDB) -> None:
    out = run(domain, db, "modify_support_ticket", ticket_id="TICKET001", status="closed",
              priority="low")  # fmt: skip
    assert out == "Success: Modified support ticket TICKET001 with status closed and priority low"
    assert run(domain, db, "modify_support_ticket", ticket_id="T9", status="x", priority="y") == (
        "Error: Support ticket not found: T9"
    )
