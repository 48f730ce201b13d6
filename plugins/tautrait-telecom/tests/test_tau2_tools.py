"""The tau2-telecom tools on the plugin's own data: τ²'s texts for outputs and errors,
the phone's behaviour, the state sync and the database export (the golden tests cover
the calls τ²'s gold trajectories make, on τ²'s data)."""

from __future__ import annotations

import json

from tautrait_telecom.tau2.database import export_side, merge_initial_data, side_hashes
from tautrait_telecom.tau2.domain import build_domain
from tautrait_telecom.tau2.schema import Bill
from tautrait_telecom.tau2.tools.agent import TODAY

from tautrait_core import Domain, EpisodeDB
from tautrait_core.testing import episode_fixtures

domain, template, new_episode, db = episode_fixtures(build_domain, today=TODAY)

BAR = "Status Bar: 📶⁴ Excellent | 5G | 📱 Data Enabled | 🔋 64%"


def agent(domain: Domain, db: EpisodeDB, name: str, **arguments: object) -> str:
    return domain.run_tool(db, name, arguments)


def user(domain: Domain, db: EpisodeDB, name: str, **arguments: object) -> str:
    output = domain.user_tools_by_name[name].invoke(db, arguments)
    db.flush()
    domain.sync_state(db)
    db.flush()
    return output


def setup(domain: Domain, db: EpisodeDB, side: str, function: str, **arguments: object) -> object:
    functions = domain.user_functions if side == "user" else domain.agent_functions
    result = functions[function](db, **arguments)
    db.flush()
    domain.sync_state(db)
    db.flush()
    return result


def test_the_domain_is_dual_control_with_tau2s_tool_sets(domain: Domain) -> None:
    assert domain.dual_control
    assert len(domain.tools) == 13 and len(domain.user_tools) == 30
    assert not set(domain.tools_by_name) & set(domain.user_tools_by_name)
    assert {t.__tablename__ for t in domain.user_tables} == {  # type: ignore[attr-defined]
        "tau2_telecom_phone",
        "tau2_telecom_surroundings",
    }


def test_argument_errors_are_pythons_texts_with_tau2s_class_names(
    domain: Domain, db: EpisodeDB
) -> None:
    assert agent(domain, db, "get_customer_by_id") == (
        "Error: TelecomTools.get_customer_by_id() missing 1 required positional argument: "
        "'customer_id'"
    )
    assert agent(domain, db, "get_customer_by_id", customer_id="C2001", bogus=1) == (
        "Error: TelecomTools.get_customer_by_id() got an unexpected keyword argument 'bogus'"
    )
    assert user(domain, db, "toggle_data", on=True) == (
        "Error: TelecomUserTools.toggle_data() got an unexpected keyword argument 'on'"
    )


def test_lookup_errors_are_tau2s(domain: Domain, db: EpisodeDB) -> None:
    assert agent(domain, db, "get_customer_by_id", customer_id="C9") == (
        "Error: Customer with ID C9 not found"
    )
    assert agent(domain, db, "get_details_by_id", id="X1") == (
        "Error: Unknown ID format or type: X1"
    )
    assert agent(domain, db, "get_details_by_id", id="B404") == "Error: Bill with ID B404 not found"
    assert agent(domain, db, "suspend_line", customer_id="C2002", line_id="L2001", reason="x") == (
        "Error: Line L2001 not found for customer C2002"
    )
    assert agent(domain, db, "refuel_data", customer_id="C2001", line_id="L2001", gb_amount=0) == (
        "Error: Refuel amount must be positive"
    )
    assert agent(domain, db, "get_customer_by_phone", phone_number="555-000-0000") == (
        "Error: Customer with phone number 555-000-0000 not found"
    )


def test_records_keep_numbers_and_plain_dicts_stringify_them(domain: Domain, db: EpisodeDB) -> None:
    plan = json.loads(agent(domain, db, "get_details_by_id", id="P2002"))
    assert plan == {
        "plan_id": "P2002",
        "name": "Everyday",
        "data_limit_gb": 12.0,
        "price_per_month": 50.0,
        "data_refueling_price_per_gb": 2.5,
    }
    assert agent(domain, db, "get_data_usage", customer_id="C2001", line_id="L2001") == (
        '{"line_id": "L2001", "data_used_gb": "6.4", "data_limit_gb": "12.0", '
        '"data_refueling_gb": "0.0", "cycle_end_date": "2025-02-28"}'
    )
    customer = agent(domain, db, "get_customer_by_phone", phone_number="555-010-4412")
    assert customer.startswith('{"customer_id": "C2001", "full_name": "Ana Ortiz"')
    assert '"created_at": "2023-05-20 17:30:00"' in customer
    assert '"last_extension_date": null' in customer
    assert (
        agent(domain, db, "get_customer_by_name", full_name="ana ORTIZ", dob="1990-01-01") == "[]"
    )


def test_bills_come_newest_first_and_refuel_charges_the_draft_bill(
    domain: Domain, db: EpisodeDB
) -> None:
    bills = json.loads(agent(domain, db, "get_bills_for_customer", customer_id="C2001", limit=1))
    assert [bill["bill_id"] for bill in bills] == ["B2002"]
    output = agent(domain, db, "refuel_data", customer_id="C2001", line_id="L2001", gb_amount=2.0)
    assert output == (
        '{"message": "Successfully added 2.0 GB of data for line L2001 for $5.00", '
        '"new_data_refueling_gb": "2.0", "charge": "5.0"}'
    )
    draft = json.loads(agent(domain, db, "get_details_by_id", id="B2002"))
    assert draft["total_due"] == 5.0
    assert draft["line_items"] == [
        {
            "description": "Data refueling: 2.0 GB at $2.5/GB",
            "amount": 5.0,
            "date": "2025-02-25",
            "item_type": "Charge",
        }
    ]


def test_a_new_draft_bill_opens_for_next_month_when_there_is_none(
    domain: Domain, db: EpisodeDB
) -> None:
    db.get(Bill, "B2002").status = "Issued"
    agent(domain, db, "refuel_data", customer_id="C2001", line_id="L2001", gb_amount=1.0)
    customer = json.loads(agent(domain, db, "get_customer_by_id", customer_id="C2001"))
    new_bill = json.loads(agent(domain, db, "get_details_by_id", id=customer["bill_ids"][-1]))
    assert len(customer["bill_ids"]) == 3
    assert (new_bill["status"], new_bill["period_start"], new_bill["period_end"]) == (
        "Draft",
        "2025-03-01",
        "2025-03-31",
    )
    assert (new_bill["due_date"], new_bill["total_due"]) == ("2025-03-15", 2.5)


def test_the_phone_reports_as_tau2s_does(domain: Domain, db: EpisodeDB) -> None:
    assert user(domain, db, "check_status_bar") == BAR
    assert user(domain, db, "run_speed_test") == (
        "Speed Test Result: 275.00 Mbps (Excellent). Connection is very fast."
    )
    assert user(domain, db, "connect_vpn") == (
        "VPN connected successfully.\n"
        "Status Bar: 📶⁴ Excellent | 5G | 📱 Data Enabled | 🔒 VPN Connected | 🔋 64%"
    )
    assert user(domain, db, "check_vpn_status") == (
        "VPN is ON and connected. Details: {'server_address': '192.168.1.1', 'protocol': "
        "'OpenVPN', 'server_performance': <PerformanceLevel.EXCELLENT: 'excellent'>}"
    )
    assert user(domain, db, "connect_vpn") == "VPN already connected."
    assert user(domain, db, "toggle_airplane_mode") == (
        "Airplane Mode is now ON.\nStatus Bar: ✈️ Airplane Mode | 🔋 64%"
    )
    assert user(domain, db, "check_vpn_status") == "VPN is turned OFF."
    assert user(domain, db, "toggle_wifi") == (
        "Cannot change Wi-Fi settings while Airplane Mode is ON.\n"
        "Status Bar: ✈️ Airplane Mode | 🔋 64%"
    )
    assert user(domain, db, "run_speed_test") == "Speed test failed: No Connection."
    assert user(domain, db, "check_network_status") == (
        "Airplane Mode: ON\nSIM Card Status: active\nCellular Connection: no_service\n"
        "Cellular Signal: none\nCellular Network Type: none\nMobile Data Enabled: Yes\n"
        "Data Roaming Enabled: No\nWi-Fi Radio: OFF\nWi-Fi Connected: No"
    )


def test_network_mode_and_apps_answer_in_tau2s_words(domain: Domain, db: EpisodeDB) -> None:
    assert user(domain, db, "set_network_mode_preference", mode="5g_only") == (
        "Failed to set network mode: '5g_only' is not a valid option. Please use one of: "
        f"4g_5g_preferred, 4g_only, 3g_only, 2g_only\n{BAR}"
    )
    assert user(domain, db, "set_network_mode_preference", mode="3g_only") == (
        "Preferred Network Mode set to: 3g_only\n"
        "Status Bar: 📶² Fair | 3G | 📱 Data Enabled | 🔋 64%"
    )
    assert user(domain, db, "run_speed_test") == (
        "Speed Test Result: 1.50 Mbps (Poor). "
        "Connection is slow. Web browsing may be sluggish, streaming difficult."
    )
    assert user(domain, db, "grant_app_permission", app_name="messaging", permission="Camera") == (
        "Error. Permission 'camera' not tracked for app 'messaging', available permissions: "
        "['sms', 'storage', 'phone', 'network']\n"
        "Status Bar: 📶² Fair | 3G | 📱 Data Enabled | 🔋 64%"
    )
    assert user(domain, db, "check_app_status", app_name="browser") == (
        "Status for App: browser\n - Permissions Granted:\n   - storage\n   - network"
    )
    assert user(domain, db, "check_app_permissions", app_name="camera") == (
        "App 'camera' not found on this phone."
    )
    assert user(domain, db, "check_installed_apps") == (
        "The following apps are installed on the phone: messaging, browser"
    )


def test_a_broken_apn_is_fixed_by_a_reset_and_a_reboot(domain: Domain, db: EpisodeDB) -> None:
    setup(domain, db, "user", "break_apn_settings")
    assert user(domain, db, "check_apn_settings").startswith("Current APN Name: broken\n")
    assert user(domain, db, "reset_apn_settings") == (
        "APN settings will reset at reboot.\nStatus Bar: 📵 No Signal | 📵 Data Disabled | 🔋 64%"
    )
    assert user(domain, db, "reboot_device") == (
        f"Resetting APN settings...\nRestarting network services...\n{BAR}"
    )


def test_the_sync_mirrors_the_line_and_carries_a_payment(domain: Domain, db: EpisodeDB) -> None:
    setup(domain, db, "user", "set_user_info", name="Tomas Berg", phone_number="555-010-7720")
    setup(
        domain,
        db,
        "assistant",
        "suspend_line_for_overdue_bill",
        customer_id="C2002",
        line_id="L2003",
        new_bill_id="B2099",
        contract_ended=False,
    )
    setup(domain, db, "user", "simulate_network_search")
    assert not export_side(db, "user")["surroundings"]["line_active"]
    assert user(domain, db, "check_payment_request") == "No payment request has been made."
    assert agent(domain, db, "send_payment_request", customer_id="C2002", bill_id="B2099") == (
        "Payment request sent to the customer for bill B2099"
    )
    domain.sync_state(db)
    assert agent(domain, db, "send_payment_request", customer_id="C2002", bill_id="B2003") == (
        "Error: A bill is already awaiting payment for this customer"
    )
    assert user(domain, db, "check_payment_request") == (
        "You have a payment request for bill B2099 of 80.0 USD."
    )
    assert user(domain, db, "make_payment") == "Payment of 80.0 USD has been made for bill B2099."
    assert json.loads(agent(domain, db, "get_details_by_id", id="B2099"))["status"] == "Paid"
    assert user(domain, db, "make_payment") == "You do not have a payment request."
    assert setup(domain, db, "assistant", "assert_no_overdue_bill", overdue_bill_id="B2099")


def test_merging_initial_data_deep_merges_one_side(domain: Domain, db: EpisodeDB) -> None:
    before_agent, _ = side_hashes(db)
    merge_initial_data(
        db,
        "user",
        {
            "device": {
                "battery_level": 12,
                "app_statuses": {"browser": {"permissions": {"network": False}}},
            }
        },
    )
    phone = export_side(db, "user")["device"]
    assert phone["battery_level"] == 12
    assert phone["app_statuses"]["browser"]["permissions"] == {
        "sms": False,
        "storage": True,
        "phone": False,
        "network": False,
    }
    assert phone["app_statuses"]["messaging"]["permissions"]["sms"] is True
    assert side_hashes(db)[0] == before_agent
    merge_initial_data(db, "assistant", {"plans": [export_side(db, "assistant")["plans"][0]]})
    assert [plan["plan_id"] for plan in export_side(db, "assistant")["plans"]] == ["P2001"]
